// ABI compatibility with version 1, the published one: structs only grow at the end.
// Every field v1 had is where v1 put it, with v1's size, and no struct became smaller, so a
// plugin or caller built against the v1 headers (v1/include) reads and writes the same bytes
// today, and the {struct_size, struct_version} header tells either side what the other knows.
#include "layout.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

namespace {

using Table = std::map<std::pair<std::string, std::string>, zkp_compat_row_t>;

Table table(size_t (*layout)(const zkp_compat_row_t**)) {
  const zkp_compat_row_t* rows = nullptr;
  const size_t n = layout(&rows);
  Table t;
  for (size_t i = 0; i < n; ++i) t[{rows[i].type, rows[i].field ? rows[i].field : ""}] = rows[i];
  return t;
}

TEST(AbiCompatV1, EveryV1FieldKeepsItsOffsetAndSize) {
  const Table v1 = table(&zkp_compat_layout_v1), now = table(&zkp_compat_layout_now);
  ASSERT_EQ(v1.size(), now.size());  // the same list, compiled twice
  size_t fields = 0;
  for (const auto& [key, old] : v1) {
    if (key.second.empty()) continue;
    const zkp_compat_row_t& cur = now.at(key);
    EXPECT_EQ(cur.offset, old.offset) << key.first << "." << key.second << " moved";
    EXPECT_EQ(cur.size, old.size) << key.first << "." << key.second << " changed size";
    ++fields;
  }
  EXPECT_GT(fields, 150u);  // every struct of zkp_*.h, not a handful
}

TEST(AbiCompatV1, NoStructShrank) {
  const Table v1 = table(&zkp_compat_layout_v1), now = table(&zkp_compat_layout_now);
  size_t structs = 0;
  for (const auto& [key, old] : v1) {
    if (!key.second.empty()) continue;
    EXPECT_GE(now.at(key).size, old.size) << key.first << " is smaller than in v1";
    ++structs;
  }
  EXPECT_GT(structs, 20u);
}

}  // namespace
