// Plugin loading: resolution along the search path, every refusal with its reason, and
// the library's lifetime (kept loaded while any object from it lives).
#include <zkpipe/host/config.hpp>
#include "pacer.hpp"
#include <zkpipe/host/plugin_loader.hpp>
#include "prover.hpp"
#include <zkpipe/sdk/error.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

namespace zkp::host {
namespace {

namespace fs = std::filesystem;

const std::string kTestPlugins = ZKPIPE_TEST_PLUGIN_DIR;

// The zkp::sdk::Error that `body` throws; fails the test if it throws none.
sdk::Error error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const sdk::Error& e) {
    return e;
  }
  ADD_FAILURE() << "no zkp::sdk::Error was thrown";
  return sdk::Error(ZKP_OK, "");
}

// Prover facts with every field 0: the plugin keeps its defaults.
zkp_prover_facts_t no_facts() { return sdk::make_struct<zkp_prover_facts_t>(); }

std::string canonical(const std::string& path) { return fs::weakly_canonical(path).string(); }

// Whether the dynamic loader has `path` loaded (RTLD_NOLOAD does not load it).
bool is_loaded(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  dlclose(handle);
  return true;
}

TEST(PluginLoader, SearchPathOrderConfiguredThenEnvironmentThenOwnFolder) {
  ::setenv("ZKPIPE_PLUGIN_PATH", "/tmp/zkpipe-env-a:/tmp/zkpipe-env-b", 1);
  const PluginLoader loader({"/tmp/zkpipe-conf"});
  ::unsetenv("ZKPIPE_PLUGIN_PATH");
  const auto& path = loader.search_path();
  ASSERT_GE(path.size(), 4u);
  EXPECT_EQ(path[0], fs::path("/tmp/zkpipe-conf"));
  EXPECT_EQ(path[1], fs::path("/tmp/zkpipe-env-a"));
  EXPECT_EQ(path[2], fs::path("/tmp/zkpipe-env-b"));
  // Then the folder of the binary the host is linked into (this test, in bin/), whose
  // ../lib holds the plugins of the build tree.
  EXPECT_NE(std::find(path.begin(), path.end(), fs::path(ZKPIPE_BUILD_LIB_DIR)), path.end());
}

TEST(PluginLoader, FindsBuiltPluginsByShortNameWithoutConfiguration) {
  const PluginLoader loader({});
  EXPECT_EQ(loader.resolve(PluginKind::prover, "sim"), fs::path(ZKPIPE_BUILD_LIB_DIR) / "libzkp_prover_sim.so");
  EXPECT_EQ(loader.resolve(PluginKind::pacer, "greedy"), fs::path(ZKPIPE_BUILD_LIB_DIR) / "libzkp_pacer_greedy.so");
}

TEST(PluginLoader, FileMissingListsTheFoldersSearched) {
  const PluginLoader loader({kTestPlugins});
  const sdk::Error e = error_of([&] { loader.resolve(PluginKind::prover, "nonexistent"); });
  EXPECT_EQ(e.status(), ZKP_ERR_NOT_FOUND);
  std::string folders;
  for (const auto& f : loader.search_path()) folders += (folders.empty() ? "" : ", ") + f.string();
  EXPECT_EQ(std::string(e.what()), "prover plugin 'nonexistent' not found: no libzkp_prover_nonexistent.so in " +
                                       folders + " (set plugin_path or ZKPIPE_PLUGIN_PATH)");
  EXPECT_NE(folders.find(canonical(kTestPlugins)), std::string::npos);
}

TEST(PluginLoader, ExplicitPathMissing) {
  const PluginLoader loader({});
  const sdk::Error e = error_of([&] { loader.resolve(PluginKind::pacer, "/nowhere/libmy_pacer.so"); });
  EXPECT_EQ(e.status(), ZKP_ERR_NOT_FOUND);
  EXPECT_STREQ(e.what(), "pacer plugin file '/nowhere/libmy_pacer.so' does not exist");
}

TEST(PluginLoader, NotASharedLibraryGivesTheLoaderReason) {
  const PluginLoader loader({kTestPlugins});
  const std::string file = canonical(kTestPlugins + "/libzkp_prover_notalib.so");
  const sdk::Error e = error_of([&] { loader.load(PluginKind::prover, "notalib"); });
  EXPECT_EQ(e.status(), ZKP_ERR_BAD_INPUT);
  // dlerror() text, e.g. "<file>: invalid ELF header" (glibc) or "... file too short".
  EXPECT_TRUE(std::string(e.what()).starts_with("plugin file '" + file + "' is not a loadable shared library: " +
                                                 file + ": "))
      << e.what();
}

TEST(PluginLoader, NoEntrySymbol) {
  const PluginLoader loader({kTestPlugins});
  const std::string file = canonical(kTestPlugins + "/libzkp_prover_noentry.so");
  const sdk::Error e = error_of([&] { loader.load(PluginKind::prover, "noentry"); });
  EXPECT_EQ(e.status(), ZKP_ERR_ABI_MISMATCH);
  EXPECT_EQ(std::string(e.what()),
            "plugin file '" + file + "' has no 'zkp_plugin_entry' symbol: it is not a zkpipe plugin");
  EXPECT_FALSE(is_loaded(file));
}

TEST(PluginLoader, AbiVersionOutOfRangeNamesBothRanges) {
  const PluginLoader loader({kTestPlugins});
  const std::string file = canonical(kTestPlugins + "/libzkp_prover_future.so");
  const sdk::Error e = error_of([&] { loader.load(PluginKind::prover, "future"); });
  EXPECT_EQ(e.status(), ZKP_ERR_ABI_MISMATCH);
  EXPECT_EQ(std::string(e.what()),
            "plugin 'future' (" + file + ") speaks ABI versions [7, 9]; this host speaks [1, 1]");
}

TEST(PluginLoader, InitFailureReportsThePluginsStatusAndMessage) {
  const PluginLoader loader({kTestPlugins});
  const std::string file = canonical(kTestPlugins + "/libzkp_prover_initfail.so");
  const sdk::Error e = error_of([&] { loader.load(PluginKind::prover, "initfail"); });
  EXPECT_EQ(e.status(), ZKP_ERR_DEVICE);
  EXPECT_EQ(std::string(e.what()),
            "plugin 'initfail' (" + file + "): init failed: no device driver found (test plugin)");
  EXPECT_FALSE(is_loaded(file));  // unloaded after the failed init
}

TEST(PluginLoader, UnknownFactory) {
  const PluginLoader loader({kTestPlugins});
  const std::string file = canonical(kTestPlugins + "/libzkp_prover_nofactory.so");
  const sdk::Error e = error_of([&] { Prover::create(loader.load(PluginKind::prover, "nofactory"), no_facts(), {}); });
  EXPECT_EQ(e.status(), ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(std::string(e.what()), "plugin 'nofactory' (" + file +
                                       ") has no prover factory 'zkp.prover/1' (it offers: nothing zkpipe knows)");
}

TEST(PluginLoader, APacerIsNotAProver) {
  const PluginLoader loader({});
  const std::string file = std::string(ZKPIPE_BUILD_LIB_DIR) + "/libzkp_pacer_greedy.so";
  const sdk::Error e = error_of([&] { Prover::create(loader.load(PluginKind::prover, file), no_facts(), {}); });
  EXPECT_EQ(e.status(), ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(std::string(e.what()),
            "plugin 'greedy' (" + file + ") has no prover factory 'zkp.prover/1' (it offers: zkp.pacer/1)");
}

TEST(PluginLoader, PluginRejectsUnknownOptionNamingPluginAndKey) {
  const PluginLoader loader({});
  const sdk::Error e =
      error_of([&] { Prover::create(loader.load(PluginKind::prover, "sim"), no_facts(), {{"devices", "2"}, {"bogus", "1"}}); });
  EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(std::string(e.what()).starts_with("prover 'sim")) << e.what();
  EXPECT_NE(std::string(e.what()).find("unknown option 'bogus'"), std::string::npos) << e.what();
}

// A plugin's refusal of an option says where the option was written: the file and line,
// or the override.
TEST(PluginLoader, RefusedOptionIsReportedWithWhereItWasWritten) {
  const fs::path file = fs::temp_directory_path() / ("zkpipe-origin-" + std::to_string(::getpid()) + ".ini");
  std::ofstream(file) << "prover = sim\n[prover]\ndevices = 2\ngpu_ms = fast\n[pacer]\ninterval = 5\n";
  const Config config = Config::load(file, std::vector<std::string>{"prover.seed=-1"});
  fs::remove(file);
  const PluginLoader loader({});

  const sdk::Error bad = error_of([&] { Prover::create(loader.load(PluginKind::prover, "sim"), no_facts(), config.prover_options); });
  EXPECT_EQ(bad.status(), ZKP_ERR_INVALID_ARGUMENT);
  const std::string what = bad.what();
  EXPECT_NE(what.find("option 'gpu_ms' = 'fast' is not an integer in [0, 3600000]"), std::string::npos) << what;
  EXPECT_TRUE(what.ends_with(" (prover.gpu_ms at " + file.string() + ":4)")) << what;

  auto overridden = config.prover_options;
  overridden.erase(overridden.begin() + 1);  // gpu_ms: the seed's error is next
  const std::string seed = error_of([&] { Prover::create(loader.load(PluginKind::prover, "sim"), no_facts(), overridden); }).what();
  EXPECT_TRUE(seed.ends_with(" (prover.seed at override 'prover.seed=-1')")) << seed;

  const std::string pacer = error_of([&] {
                              Pacer::create(loader.load(PluginKind::pacer, "greedy"),
                                            sdk::make_struct<zkp_pacer_facts_t>(), config.pacer_options);
                            }).what();
  EXPECT_NE(pacer.find("pacer 'greedy': unknown option 'interval'"), std::string::npos) << pacer;
  EXPECT_TRUE(pacer.ends_with(" (pacer.interval at " + file.string() + ":6)")) << pacer;
}

// The sim prover's help is its option table: it lists all seven options, and every one
// set to the default the help shows is accepted.
TEST(PluginLoader, SimHelpListsEveryOptionWithItsDefault) {
  const PluginLoader loader({});
  auto lib = loader.load(PluginKind::prover, "sim");
  const auto* factory = static_cast<const zkp_prover_factory_t*>(lib->factory(ZKP_PROVER_FACTORY_ID));
  ASSERT_NE(factory, nullptr);
  std::istringstream help(factory->options_help);
  std::vector<PluginOption> all;
  for (std::string line; std::getline(help, line);) {
    const size_t eq = line.find('=');
    ASSERT_NE(eq, std::string::npos) << line;
    all.push_back({line.substr(0, eq), line.substr(eq + 1, line.find(' ') - eq - 1)});
  }
  ASSERT_EQ(all.size(), 7u) << factory->options_help;
  EXPECT_EQ(all[1].key, "gpu_ms");
  EXPECT_EQ(all[1].value, "1000");
  auto prover = Prover::create(lib, no_facts(), all);
  EXPECT_EQ(prover->device_count(), 1u);
}

TEST(PluginLoader, SameFileOpensOnceWhileLoaded) {
  const PluginLoader loader({});
  auto a = loader.load(PluginKind::prover, "sim");
  auto b = loader.load(PluginKind::prover, std::string(ZKPIPE_BUILD_LIB_DIR) + "/libzkp_prover_sim.so");
  EXPECT_EQ(a.get(), b.get());  // one PluginLibrary: init ran once
  EXPECT_EQ(a->name(), "sim");
  EXPECT_EQ(a->abi_version(), ZKP_ABI_VERSION);
}

TEST(PluginLoader, LibraryStaysLoadedWhileAnObjectFromItLives) {
  const std::string file = std::string(ZKPIPE_BUILD_LIB_DIR) + "/libzkp_prover_sim.so";
  ASSERT_FALSE(is_loaded(file));
  std::unique_ptr<Prover> prover;
  {
    const PluginLoader loader({});
    prover = Prover::create(loader.load(PluginKind::prover, "sim"), no_facts(), {{"devices", "3"}});
  }
  // The loader and its shared_ptr are gone; the prover keeps the library.
  EXPECT_TRUE(is_loaded(file));
  EXPECT_EQ(prover->device_count(), 3u);
  EXPECT_EQ(prover->device_info(2).partitions_started, 0u);  // calls into the library still work
  prover.reset();
  EXPECT_FALSE(is_loaded(file));  // deinit ran and the library was unloaded with the last object
}

TEST(PluginLoader, ReloadAfterUnload) {
  const PluginLoader loader({});
  auto first = Pacer::create(loader.load(PluginKind::pacer, "greedy"), sdk::make_struct<zkp_pacer_facts_t>(), {});
  first.reset();
  auto second = Pacer::create(loader.load(PluginKind::pacer, "greedy"), sdk::make_struct<zkp_pacer_facts_t>(), {});
  EXPECT_EQ(second->name(), "greedy");
  EXPECT_NE(second->status_line().find("greedy: admitted=0"), std::string::npos) << second->status_line();
}

TEST(PluginLoader, CandidatesListPluginsButNotTheHostItself) {
  const PluginLoader loader({kTestPlugins});
  std::vector<std::string> names;
  for (const auto& f : loader.candidates()) names.push_back(f.filename().string());
  for (const char* expected : {"libzkp_prover_sim.so", "libzkp_pacer_greedy.so", "libzkp_prover_notalib.so",
                               "libzkp_prover_future.so", "libzkp_prover_hosttest.so"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const auto& n : names) EXPECT_FALSE(n.starts_with("libzkpipe.so")) << n;
  // Not named like a plugin: listed nowhere, so `zkpipe plugins` never opens it.
  EXPECT_EQ(std::find(names.begin(), names.end(), "libconstructor_marker.so"), names.end());
}

// An explicit path is the caller's choice: that file is opened whatever its name (and, not
// being a plugin, refused after its constructor ran).
TEST(PluginLoader, ExplicitPathOpensAnyLibrary) {
  const std::string marker = testing::TempDir() + "zkp_marker_" + std::to_string(::getpid());
  ::setenv("ZKP_TEST_MARKER_FILE", marker.c_str(), 1);
  const PluginLoader loader({});
  EXPECT_THROW(loader.load(PluginKind::prover, kTestPlugins + "/libconstructor_marker.so"), sdk::Error);
  ::unsetenv("ZKP_TEST_MARKER_FILE");
  EXPECT_TRUE(fs::exists(marker));
  fs::remove(marker);
}

}  // namespace
}  // namespace zkp::host
