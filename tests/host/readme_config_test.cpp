// README.md's configuration table is the code's (host/src/config_table.cpp): same keys,
// defaults and meanings, row by row.
#include <zkpipe/host/config.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace zkp::host {
namespace {

constexpr const char* kHowToUpdate =
    "README.md's configuration table differs from host_options() (host/src/config_table.cpp).\n"
    "Regenerate it from the code with: scripts/update_readme_config.sh BUILD/bin/zkpipe\n"
    "(it pastes `zkpipe --help --markdown` into README.md's \"## Configuration\").";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The table of README.md's "## Configuration": its run of lines that start with '|'.
std::vector<std::string> readme_table(const std::string& readme) {
  std::vector<std::string> out;
  bool in_section = false;
  for (const std::string& line : lines_of(readme)) {
    if (line.starts_with("## ")) in_section = line == "## Configuration";
    if (!in_section) continue;
    if (line.starts_with("|")) {
      out.push_back(line);
    } else if (!out.empty()) {
      break;
    }
  }
  return out;
}

TEST(ReadmeConfiguration, TableIsTheCodes) {
  std::ifstream in(ZKPIPE_README);
  ASSERT_TRUE(in) << "cannot read " << ZKPIPE_README;
  std::stringstream readme;
  readme << in.rdbuf();
  const std::vector<std::string> documented = readme_table(readme.str());
  const std::vector<std::string> code = lines_of(config_markdown_table());
  ASSERT_FALSE(documented.empty()) << "no table under \"## Configuration\" in " << ZKPIPE_README << "\n"
                                   << kHowToUpdate;
  for (size_t i = 0; i < std::max(documented.size(), code.size()); ++i) {
    EXPECT_EQ(i < documented.size() ? documented[i] : "(no row)", i < code.size() ? code[i] : "(no row)")
        << "row " << i << " (README.md first, then the code)\n" << kHowToUpdate;
  }
}

// The words the README uses for the machine's defaults, never this machine's numbers.
TEST(ReadmeConfiguration, MachineDependentDefaultsAreWords) {
  const std::string table = config_markdown_table();
  EXPECT_NE(table.find("| `synthesis_threads` | hardware threads, within the affinity mask and the cgroup CPU quota |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| `budget` | half of RAM or of the cgroup memory limit |"), std::string::npos) << table;
  EXPECT_NE(table.find("| `status_every` | `10` |"), std::string::npos) << table;
  EXPECT_NE(table.find("| `plugin_path` | |"), std::string::npos) << table;
  EXPECT_NE(table.find("| `[prover]` / `prover.KEY` | |"), std::string::npos) << table;
}

}  // namespace
}  // namespace zkp::host
