// The key table serve and the fleet worker share (host/services/key_table.hpp), on a host with
// the sim prover and a clock the test moves: a file loaded once and found warm after, keys
// unloaded when idle (--key-idle-ms) but never while a job of theirs is open, the largest
// synthesis size following what is loaded, and failed loads counted.
#include <gtest/gtest.h>

#include <zkpipe/host/host.hpp>
#include <zkpipe/sdk/error.hpp>

#include "services/key_table.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace zkp;
using namespace std::chrono_literals;

std::chrono::steady_clock::time_point fake_now;
std::chrono::steady_clock::time_point fake_clock() { return fake_now; }

class KeyTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("zkp_key_table_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    fake_now = std::chrono::steady_clock::time_point{} + 1000s;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string key_file(const char* name) {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p) << "a key the sim prover does not read: " << name;
    return p.string();
  }

  static host::Config sim_config() {
    const std::vector<std::string> overrides = {"plugin_path=" ZKPIPE_BUILD_LIB_DIR, "prover=sim", "log_level=warn"};
    return host::Config::load(std::nullopt, overrides);
  }

  std::filesystem::path dir_;
};

TEST_F(KeyTableTest, AFileIsLoadedOnceAndFoundWarmAfter) {
  host::Host host(sim_config());
  services::KeyTable keys(host, 0, "test", &fake_clock);
  const std::string a = key_file("a.zkey");
  const services::KeyTable::Loaded first = keys.load(a, ZKP_KEY_FORMAT_ZKEY);
  EXPECT_FALSE(first.already_loaded);
  const services::KeyTable::Loaded again = keys.load(a, ZKP_KEY_FORMAT_ZKEY);
  EXPECT_TRUE(again.already_loaded);
  EXPECT_EQ(again.key.id, first.key.id);
  EXPECT_EQ(again.key.asked_path, a);
  EXPECT_EQ(keys.counters().loads, 1u);
  EXPECT_EQ(keys.counters().hits, 1u);
  EXPECT_EQ(keys.max_synthesis_bytes(), first.key.info.synthesis_bytes);
}

TEST_F(KeyTableTest, IdleKeysAreUnloadedButNeverWithAJobOpen) {
  host::Host host(sim_config());
  services::KeyTable keys(host, 0, "test", &fake_clock);
  const uint64_t busy = keys.load(key_file("busy.zkey"), ZKP_KEY_FORMAT_ZKEY).key.id;
  const uint64_t idle = keys.load(key_file("idle.zkey"), ZKP_KEY_FORMAT_ZKEY).key.id;
  keys.note_job(busy);

  fake_now += 4s;
  EXPECT_TRUE(keys.unload_idle(5s).empty());  // neither is 5 s idle yet
  fake_now += 2s;
  const std::vector<services::KeyEntry> first = keys.unload_idle(5s);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].id, idle);
  EXPECT_EQ(keys.size(), 1u);

  keys.job_done(busy);  // its last use is now
  fake_now += 4s;
  EXPECT_TRUE(keys.unload_idle(5s).empty());
  fake_now += 1s;
  const std::vector<services::KeyEntry> second = keys.unload_idle(5s);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].id, busy);
  EXPECT_EQ(keys.size(), 0u);
  EXPECT_EQ(keys.max_synthesis_bytes(), 0u);
  EXPECT_EQ(keys.counters().used_bytes, 0u);
}

TEST_F(KeyTableTest, AMissingFileIsNotFound) {
  host::Host host(sim_config());
  services::KeyTable keys(host, 0, "test", &fake_clock);
  try {
    keys.load((dir_ / "absent.zkey").string(), ZKP_KEY_FORMAT_ZKEY);
    FAIL() << "a missing key file loaded";
  } catch (const sdk::Error& e) {
    EXPECT_EQ(e.status(), ZKP_ERR_NOT_FOUND);
  }
  EXPECT_EQ(keys.counters().failed, 1u);
}

// Every failed load is counted (serve's zkpipe_key_load_failures_total, issue 39): a missing
// file, an unknown format, a key past the budget (also a budget refusal); loads that succeed
// and warm hits are not.
TEST_F(KeyTableTest, FailedLoadsAreCounted) {
  host::Host host(sim_config());
  services::KeyTable keys(host, 10, "test", &fake_clock);  // a 10-byte budget: no key file fits
  EXPECT_THROW(keys.load((dir_ / "absent.zkey").string(), ZKP_KEY_FORMAT_ZKEY), sdk::Error);
  EXPECT_THROW(keys.load(key_file("a.zkey"), 99), sdk::Error);
  EXPECT_THROW(keys.load(key_file("big.zkey"), ZKP_KEY_FORMAT_ZKEY), sdk::Error);
  EXPECT_EQ(keys.counters().failed, 3u);
  EXPECT_EQ(keys.counters().refused, 1u);
  EXPECT_EQ(keys.counters().loads, 0u);

  services::KeyTable unbounded(host, 0, "test", &fake_clock);
  const std::string a = key_file("b.zkey");
  unbounded.load(a, ZKP_KEY_FORMAT_ZKEY);
  unbounded.load(a, ZKP_KEY_FORMAT_ZKEY);
  EXPECT_EQ(unbounded.counters().failed, 0u);
}

}  // namespace
