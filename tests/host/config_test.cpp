// The configuration: INI file + key=value overrides, every error names what is wrong.
#include <zkpipe/host/byte_size.hpp>
#include <zkpipe/host/config.hpp>
#include "ini_file.hpp"
#include "pipeline.hpp"
#include <zkpipe/sdk/error.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace zkp::host {
namespace {

namespace fs = std::filesystem;

// A config file in a fresh temporary folder, removed with the fixture.
class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zkpipe-config-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& text) {
    const fs::path file = dir_ / "zkpipe.ini";
    std::ofstream(file) << text;
    return file;
  }

  // The error Config::load throws; fails the test if it does not throw.
  static sdk::Error load_error(const std::optional<fs::path>& file, std::vector<std::string> overrides) {
    try {
      Config::load(file, overrides);
    } catch (const sdk::Error& e) {
      return e;
    }
    ADD_FAILURE() << "Config::load did not throw";
    return sdk::Error(ZKP_OK, "");
  }

  fs::path dir_;
};

TEST_F(ConfigTest, DefaultsWithoutFileOrOverrides) {
  const Config c = Config::load(std::nullopt, {});
  EXPECT_EQ(c.prover, "cpu");
  EXPECT_EQ(c.pacer, "greedy");
  EXPECT_TRUE(c.plugin_path.empty());
  EXPECT_EQ(c.workers_per_device, 2u);
  EXPECT_EQ(c.synthesis_threads, default_synthesis_threads());
  EXPECT_GE(c.synthesis_threads, 1u);
  EXPECT_EQ(c.budget_bytes, default_budget_bytes());
  EXPECT_GT(c.budget_bytes, 0u);
  EXPECT_EQ(c.queue, QueueMode::per_device);
  EXPECT_TRUE(c.self_check);
  EXPECT_EQ(c.log_level, spdlog::level::info);
  EXPECT_EQ(c.status_every, 10u);
  EXPECT_TRUE(c.prover_options.empty());
  EXPECT_TRUE(c.pacer_options.empty());
}

TEST_F(ConfigTest, ReadsEveryKeyAndPluginSections) {
  const fs::path file = write(
      "# a comment\n"
      "prover = sim\n"
      "pacer = /opt/zkpipe/libzkp_pacer_pi.so\n"
      "plugin_path = /a:/b::/c\n"
      "workers_per_device = 3\n"
      "synthesis_threads = 5\n"
      "budget = 1.5 GiB\n"
      "queue = shared\n"
      "self_check = off\n"
      "log_level = warn\n"
      "status_every = 0\n"
      "[prover]\n"
      "devices = 2   # inline comment\n"
      "gpu_ms = 20\n"
      "[pacer]\n"
      "target = 8\n");
  const Config c = Config::load(file, {});
  EXPECT_EQ(c.prover, "sim");
  EXPECT_EQ(c.pacer, "/opt/zkpipe/libzkp_pacer_pi.so");
  EXPECT_EQ(c.plugin_path, (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_EQ(c.workers_per_device, 3u);
  EXPECT_EQ(c.synthesis_threads, 5u);
  EXPECT_EQ(c.budget_bytes, 3ull << 29);
  EXPECT_EQ(c.queue, QueueMode::shared);
  EXPECT_FALSE(c.self_check);
  EXPECT_EQ(c.log_level, spdlog::level::warn);
  EXPECT_EQ(c.status_every, 0u);
  ASSERT_EQ(c.prover_options.size(), 2u);
  EXPECT_EQ(c.prover_options[0].key, "devices");
  EXPECT_EQ(c.prover_options[0].value, "2");
  EXPECT_EQ(c.prover_options[1].key, "gpu_ms");
  EXPECT_EQ(c.prover_options[1].value, "20");
  ASSERT_EQ(c.pacer_options.size(), 1u);
  EXPECT_EQ(c.pacer_options[0].key, "target");
  EXPECT_EQ(c.pacer_options[0].value, "8");
}

TEST_F(ConfigTest, OverridesApplyAfterTheFileAndLaterWins) {
  const fs::path file = write("workers_per_device = 3\n[prover]\ndevices = 2\n");
  const std::vector<std::string> overrides{"workers_per_device=4", "prover.devices=3", "pacer.target = 6",
                                           "workers_per_device = 5", "prover.gpu_ms=7"};
  const Config c = Config::load(file, overrides);
  EXPECT_EQ(c.workers_per_device, 5u);
  ASSERT_EQ(c.prover_options.size(), 2u);
  EXPECT_EQ(c.prover_options[0].key, "devices");
  EXPECT_EQ(c.prover_options[0].value, "3");
  EXPECT_EQ(c.prover_options[1].value, "7");
  ASSERT_EQ(c.pacer_options.size(), 1u);
  EXPECT_EQ(c.pacer_options[0].value, "6");
}

TEST_F(ConfigTest, MissingFileNamesThePath) {
  const fs::path missing = dir_ / "nope.ini";
  const sdk::Error e = load_error(missing, {});
  EXPECT_EQ(e.status(), ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(std::string(e.what()), "config file '" + missing.string() + "' does not exist");
}

TEST_F(ConfigTest, UnknownKeyInFileNamesKeyFileAndLine) {
  const fs::path file = write("prover = sim\n\n# typo below\nworkrs_per_device = 2\n");
  const sdk::Error e = load_error(file, {});
  EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(std::string(e.what()).starts_with(file.string() + ":4: unknown key 'workrs_per_device' (known keys: "))
      << e.what();
}

TEST_F(ConfigTest, UnknownKeyInUnknownSectionIsAnError) {
  const fs::path file = write("[provr]\ndevices = 2\n");
  const sdk::Error e = load_error(file, {});
  EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(std::string(e.what()).starts_with(file.string() + ":2: unknown key 'provr.devices'")) << e.what();
}

TEST_F(ConfigTest, UnknownOverrideKeyNamesTheOverride) {
  const sdk::Error e = load_error(std::nullopt, {"budgt=4GiB"});
  EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(std::string(e.what()).starts_with("override 'budgt=4GiB': unknown key 'budgt'")) << e.what();
}

TEST_F(ConfigTest, OverrideWithoutEqualsSign) {
  const sdk::Error e = load_error(std::nullopt, {"workers_per_device"});
  EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(e.what(), "override 'workers_per_device': expected key=value");
}

TEST_F(ConfigTest, NegativeOrZeroWorkersAreRejectedWithKeyAndValue) {
  for (const char* value : {"-1", "0", "two", "2.5", "1025", ""}) {
    const sdk::Error e = load_error(std::nullopt, {std::string("workers_per_device=") + value});
    EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(e.what()), std::string("override 'workers_per_device=") + value +
                                         "': workers_per_device = '" + value +
                                         "' is invalid: expected an integer in [1, 1024]");
  }
}

TEST_F(ConfigTest, BadValueInFileNamesLine) {
  const fs::path file = write("prover = sim\nsynthesis_threads = 0\n");
  const sdk::Error e = load_error(file, {});
  EXPECT_EQ(std::string(e.what()),
            file.string() + ":2: synthesis_threads = '0' is invalid: expected an integer in [1, 4096]");
}

TEST_F(ConfigTest, BadBudget) {
  for (const char* value : {"12 apples", "0", "-5GiB", "GiB", "1.5", "99999999999 TiB"}) {
    const sdk::Error e = load_error(std::nullopt, {std::string("budget=") + value});
    EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(e.what()),
              std::string("override 'budget=") + value + "': budget = '" + value +
                  "' is invalid: expected a byte size above 0 such as 64GiB, 512 MiB, 2GB or 1073741824");
  }
}

TEST_F(ConfigTest, BadQueueSelfCheckLogLevel) {
  EXPECT_STREQ(load_error(std::nullopt, {"queue=foo"}).what(),
               "override 'queue=foo': queue = 'foo' is invalid: expected per-device or shared");
  EXPECT_STREQ(load_error(std::nullopt, {"self_check=maybe"}).what(),
               "override 'self_check=maybe': self_check = 'maybe' is invalid: expected true or false");
  EXPECT_STREQ(load_error(std::nullopt, {"log_level=loud"}).what(),
               "override 'log_level=loud': log_level = 'loud' is invalid: expected trace, debug, info, warn, "
               "error or off");
  EXPECT_STREQ(load_error(std::nullopt, {"prover="}).what(),
               "override 'prover=': prover = '' is invalid: expected a plugin name or path");
}

TEST_F(ConfigTest, SyntaxErrorNamesTheFile) {
  const fs::path file = write("prover sim\n");
  const sdk::Error e = load_error(file, {});
  EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(std::string(e.what()).starts_with(file.string() + ": ")) << e.what();
  EXPECT_NE(std::string(e.what()).find("prover sim"), std::string::npos) << e.what();
}

TEST_F(ConfigTest, EveryKeyIsDocumentedWithItsDefault) {
  std::ostringstream help;
  print_config_reference(help);
  for (const char* key : {"prover = cpu", "pacer = greedy", "plugin_path", "workers_per_device = 2",
                          "synthesis_threads = ", "budget = ", "queue = per-device", "self_check = true",
                          "log_level = info", "status_every = 10", "prover.KEY", "pacer.KEY"}) {
    EXPECT_NE(help.str().find(std::string("  ") + key), std::string::npos) << key << "\n" << help.str();
  }
}

TEST_F(ConfigTest, SyntaxErrorNamesTheLine) {
  const fs::path file = write("prover = sim\n\n[prover]\ndevices 2\n");
  EXPECT_STREQ(load_error(file, {}).what(),
               (file.string() + ": line 4 'devices 2' is neither key = value nor [section]").c_str());
}

// Issue 36: '#' starts a comment only at a line's start or after a space or tab, so a value may
// hold one (a socket "a#b.sock" used to become "a"); both kinds of comment still work.
TEST_F(ConfigTest, HashInsideAValueIsPartOfIt) {
  const fs::path file = write("#top\nprover = sim # the simulator\n[prover]\n  # indented\nlabel = a#b.sock\t#tab\nx = #y\n");
  const std::vector<IniSetting> s = read_ini_file(file);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].value, "sim");
  EXPECT_EQ(s[1].key, "prover.label");
  EXPECT_EQ(s[1].value, "a#b.sock");
  EXPECT_EQ(s[2].value, "");  // "x = #y": the '#' follows a space
}

// Issue 36: a NUL byte in a value ("3\0 9" reached the plugin as "3") is an error naming file:line.
TEST_F(ConfigTest, ANulByteIsAnErrorNamingTheLine) {
  const fs::path file = write(std::string("prover = sim\n[prover]\ndevices = 3\0 9\n", 36));
  EXPECT_STREQ(load_error(file, {}).what(),
               (file.string() + ":3: the line holds a NUL byte (a config file is text)").c_str());
}

// Issue 36: a key set twice in one file (the last one used to win, silently) is an error naming
// both lines; an override still replaces a file's value.
TEST_F(ConfigTest, AKeySetTwiceInAFileIsAnError) {
  const fs::path file = write("prover = sim\n[prover]\ndevices = 2\n[pacer]\ntarget = 8\n[prover]\ndevices = 3\n");
  EXPECT_STREQ(load_error(file, {}).what(),
               (file.string() + ":7: 'prover.devices' is set again (first at " + file.string() +
                ":3); a key is set once in a file")
                   .c_str());
  const fs::path twice = write("workers_per_device = 1\nworkers_per_device = 2\n");
  EXPECT_EQ(load_error(twice, {}).status(), ZKP_ERR_INVALID_ARGUMENT);
  const fs::path once = write("workers_per_device = 1\n");
  EXPECT_EQ(Config::load(once, std::vector<std::string>{"workers_per_device=2"}).workers_per_device, 2u);
}

// Every plugin option remembers where it was written, the later place when it is set twice.
TEST_F(ConfigTest, PluginOptionsKeepWhereTheyWereWritten) {
  const fs::path file = write("prover = sim\n[prover]\ndevices = 2\n# gpu time\ngpu_ms = 20\n[pacer]\ntarget = 8\n");
  const Config c = Config::load(file, std::vector<std::string>{"prover.gpu_ms=30", "pacer.kp=0.1"});
  ASSERT_EQ(c.prover_options.size(), 2u);
  EXPECT_EQ(c.prover_options[0].origin, file.string() + ":3");
  EXPECT_EQ(c.prover_options[1].value, "30");
  EXPECT_EQ(c.prover_options[1].origin, "override 'prover.gpu_ms=30'");
  ASSERT_EQ(c.pacer_options.size(), 2u);
  EXPECT_EQ(c.pacer_options[0].origin, file.string() + ":7");
  EXPECT_EQ(c.pacer_options[1].origin, "override 'pacer.kp=0.1'");
}

TEST(OptionOrigins, FollowTheMessageForEachKeyItQuotes) {
  const std::vector<PluginOption> options{{"rate_min", "2", "/etc/z.ini:3"},
                                          {"rate_max", "1", "override 'pacer.rate_max=1'"},
                                          {"rate", "9", "/etc/z.ini:5"}};
  EXPECT_EQ(with_option_origins("pacer 'pi': option 'rate_min' = '2' is above 'rate_max' = '1'", options, "pacer"),
            "pacer 'pi': option 'rate_min' = '2' is above 'rate_max' = '1' (pacer.rate_min at /etc/z.ini:3, "
            "pacer.rate_max at override 'pacer.rate_max=1')");
  EXPECT_EQ(with_option_origins("prover 'sim': device lost", options, "prover"), "prover 'sim': device lost");
}

// The pipeline gets what the configuration says, status_every's default included.
TEST_F(ConfigTest, PipelineSettingsAreTheConfigs) {
  const PipelineSettings d = PipelineSettings::from(Config::load(std::nullopt, {}), 3);
  EXPECT_EQ(d.devices, 3u);
  EXPECT_EQ(d.workers_per_device, 2u);
  EXPECT_EQ(d.synthesis_threads, default_synthesis_threads());
  EXPECT_EQ(d.budget_bytes, default_budget_bytes());
  EXPECT_EQ(d.queue, QueueMode::per_device);
  EXPECT_TRUE(d.self_check);
  EXPECT_EQ(d.device_retries, 2u);
  EXPECT_EQ(d.status_every, 10u);
  EXPECT_EQ(d.watchdog_floor_ns, 0u);  // the partition watchdog is off by default
  const PipelineSettings s = PipelineSettings::from(
      Config::load(std::nullopt, std::vector<std::string>{"workers_per_device=3", "synthesis_threads=5",
                                                          "budget=1GiB", "queue=shared", "self_check=false",
                                                          "device_retries=7", "status_every=4",
                                                          "watchdog_floor_ms=250"}),
      1);
  EXPECT_EQ(s.workers_per_device, 3u);
  EXPECT_EQ(s.synthesis_threads, 5u);
  EXPECT_EQ(s.budget_bytes, 1ull << 30);
  EXPECT_EQ(s.queue, QueueMode::shared);
  EXPECT_FALSE(s.self_check);
  EXPECT_EQ(s.device_retries, 7u);
  EXPECT_EQ(s.status_every, 4u);
  EXPECT_EQ(s.watchdog_floor_ns, 250'000'000u);
}

TEST(ByteSize, ParsesSuffixes) {
  EXPECT_EQ(parse_byte_size("1073741824"), 1073741824u);
  EXPECT_EQ(parse_byte_size("512B"), 512u);
  EXPECT_EQ(parse_byte_size("1KiB"), 1024u);
  EXPECT_EQ(parse_byte_size("3 MiB"), 3u << 20);
  EXPECT_EQ(parse_byte_size(" 64GiB "), 64ull << 30);
  EXPECT_EQ(parse_byte_size("2TiB"), 2ull << 40);
  EXPECT_EQ(parse_byte_size("1KB"), 1000u);
  EXPECT_EQ(parse_byte_size("2MB"), 2000000u);
  EXPECT_EQ(parse_byte_size("4GB"), 4000000000u);
  EXPECT_EQ(parse_byte_size("1TB"), 1000000000000u);
  EXPECT_EQ(parse_byte_size("0.5KiB"), 512u);
  EXPECT_EQ(parse_byte_size("1.5 GiB"), 3ull << 29);
  EXPECT_EQ(parse_byte_size("18446744073709551615"), UINT64_MAX);
}

TEST(ByteSize, RejectsNonsense) {
  for (const char* text : {"", "apples", "12 apples", "1.5", "1.KiB", "-1", "1 gib", "1 KiBB",
                           "18446744073709551616", "17179869184 GiB"}) {
    EXPECT_FALSE(parse_byte_size(text).has_value()) << text;
  }
}

TEST(ByteSize, Formats) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(64ull << 30), "64.0 GiB");
}

}  // namespace
}  // namespace zkp::host

namespace zkp::host {
namespace {

// What a reload names: every key written differently, in any section, an override beating the
// file as it does when the value is applied, and nothing for a key written the same way twice.
TEST(ChangedKeys, NamesEveryKeyWrittenDifferently) {
  const std::vector<std::string> none;
  const Config a = Config::load(std::nullopt, std::vector<std::string>{"workers_per_device=2", "prover.devices=2",
                                                                       "serve.tcp=127.0.0.1:1", "log_level=info"});
  EXPECT_EQ(changed_keys(a, a), none);
  const Config b = Config::load(std::nullopt, std::vector<std::string>{"workers_per_device=2", "workers_per_device=3",
                                                                       "prover.devices=2", "pacer.p=1", "log_level=info"});
  EXPECT_EQ(changed_keys(a, b), (std::vector<std::string>{"pacer.p", "serve.tcp", "workers_per_device"}));
  EXPECT_EQ(changed_keys(Config::load(std::nullopt, std::vector<std::string>{}), b),
            (std::vector<std::string>{"log_level", "pacer.p", "prover.devices", "workers_per_device"}));
}

}  // namespace
}  // namespace zkp::host
