// The built pacer plugins, loaded through the C ABI as the host loads them: option
// validation (a bad option names the pacer and the key), and each pacer's answers.
#include "sim/plugin_loader.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using zkp::pacing_sim::PluginLibrary;
using Options = std::vector<std::pair<std::string, std::string>>;

constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kS = 1'000'000'000;

std::shared_ptr<PluginLibrary> library(const std::string& name) {
  return PluginLibrary::open(zkp::pacing_sim::pacer_library_path(name, ZKPIPE_PACER_DIR));
}

zkp_pacer_facts_t facts(uint32_t devices = 1, uint32_t workers = 2) {
  auto f = zkp::sdk::make_struct<zkp_pacer_facts_t>();
  f.device_count = devices;
  f.workers_per_device = workers;
  f.synthesis_threads = 44;
  f.budget_bytes = 400ull << 30;
  return f;
}

struct LogSink {
  std::vector<std::string> lines;
  static void log(void* data, zkp_log_level_t, const char* message) {
    static_cast<LogSink*>(data)->lines.emplace_back(message);
  }
};

// A pacer created through the factory, or the factory's error.
struct Created {
  std::shared_ptr<PluginLibrary> lib;
  LogSink sink;
  zkp_host_services_t host = zkp::sdk::make_struct<zkp_host_services_t>();
  zkp_pacer_t* pacer = nullptr;
  zkp_status_t status = ZKP_OK;
  std::string message;
  ~Created() {
    if (pacer != nullptr) pacer->destroy(pacer);
  }
};

std::unique_ptr<Created> create(const std::string& name, const Options& options,
                                const zkp_pacer_facts_t& f = facts()) {
  auto c = std::make_unique<Created>();
  c->lib = library(name);
  c->host.host_data = &c->sink;
  c->host.log = &LogSink::log;
  std::vector<zkp_option_t> opts;
  for (const auto& [k, v] : options) opts.push_back({k.c_str(), v.c_str()});
  auto err = zkp::sdk::make_struct<zkp_error_t>();
  c->status = c->lib->pacer_factory().create(&c->host, &f, opts.data(), opts.size(), &c->pacer, &err);
  c->message = err.message;
  return c;
}

zkp_pipeline_state_t state(uint64_t now_ns, uint32_t synthesizing = 0, uint32_t waiting = 0, uint32_t proving = 0) {
  auto s = zkp::sdk::make_struct<zkp_pipeline_state_t>();
  s.now_ns = now_ns;
  s.pending = 10;
  s.synthesizing = synthesizing;
  s.waiting = waiting;
  s.proving = proving;
  s.budget_used_bytes = 9ull << 30;
  s.budget_total_bytes = 400ull << 30;
  s.next_partition_bytes = 9ull << 30;
  return s;
}

// ns: gpu_duration_ns for GPU_DONE, synthesis_ns for SYNTHESIS_DONE.
void send(zkp_pacer_t* p, zkp_pacer_event_kind_t kind, const zkp_pipeline_state_t& s, uint64_t ns = 0) {
  auto e = zkp::sdk::make_struct<zkp_pacer_event_t>();
  e.kind = kind;
  e.gpu_index = kind == ZKP_PACER_EVENT_GPU_DONE ? 0 : -1;
  e.gpu_duration_ns = kind == ZKP_PACER_EVENT_GPU_DONE ? ns : 0;
  e.synthesis_ns = kind == ZKP_PACER_EVENT_SYNTHESIS_DONE ? ns : 0;
  e.state = s;
  p->on_event(p, &e);
}

uint64_t ask(zkp_pacer_t* p, const zkp_pipeline_state_t& s) { return p->next_admission_ns(p, &s); }

struct BadOption {
  const char* pacer;
  const char* key;
  const char* value;
};

class RejectsBadOption : public ::testing::TestWithParam<BadOption> {};

TEST_P(RejectsBadOption, WithAMessageNamingThePacerAndTheKey) {
  const BadOption& b = GetParam();
  auto c = create(b.pacer, {{b.key, b.value}});
  EXPECT_EQ(c->status, ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(c->pacer, nullptr);
  EXPECT_NE(c->message.find(std::string("pacer '") + b.pacer + "'"), std::string::npos) << c->message;
  EXPECT_NE(c->message.find(b.key), std::string::npos) << c->message;
}

INSTANTIATE_TEST_SUITE_P(
    Pi, RejectsBadOption,
    ::testing::Values(BadOption{"pi", "target", "8"},  // a typo of target_waiting
                      BadOption{"pi", "target_waiting", "0"}, BadOption{"pi", "target_waiting", "eight"},
                      BadOption{"pi", "waiting_alpha", "0"}, BadOption{"pi", "waiting_alpha", "1.5"},
                      BadOption{"pi", "gpu_alpha", "-0.2"}, BadOption{"pi", "kp", "fast"},
                      BadOption{"pi", "ki", "-1"}, BadOption{"pi", "integral_min", "5"},
                      BadOption{"pi", "integral_max", "-5"}, BadOption{"pi", "rate_min", "0"},
                      BadOption{"pi", "rate_min", "4"},  // above rate_max = 3
                      BadOption{"pi", "interval_min_ms", "-1"},
                      BadOption{"pi", "fill_factor", "-0.5"},
                      BadOption{"pi", "bootstrap_fraction", "2"},
                      BadOption{"pi", "cold_start_budget", "1.5"}, BadOption{"pi", "target_per_worker", "maybe"},
                      BadOption{"pi", "interval_min_ms", "70000"},  // above interval_max_ms
                      BadOption{"pi", "interval_max_ms", "1.5"}, BadOption{"pi", "bootstrap_spacing_ms", "-3"},
                      BadOption{"pi", "rebootstrap_spacing_min_ms", "2s"}, BadOption{"pi", "drained_below", "x"},
                      BadOption{"pi", "status_every", "-1"}, BadOption{"pi", "gain_schedule", "maybe"},
                      BadOption{"pi", "loop_gain", "0"}, BadOption{"pi", "loop_gain", "-0.5"},
                      BadOption{"pi", "synthesis_alpha", "0"}));

INSTANTIATE_TEST_SUITE_P(Fixed, RejectsBadOption,
                         ::testing::Values(BadOption{"fixed", "interval_ms", "0"},
                                           BadOption{"fixed", "interval_ms", "1e3"},
                                           BadOption{"fixed", "interval", "100"}));

INSTANTIATE_TEST_SUITE_P(Greedy, RejectsBadOption, ::testing::Values(BadOption{"greedy", "interval_ms", "1"}));

// The relation checks name both keys.
TEST(PiOptions, RateMinAboveRateMaxNamesBoth) {
  auto c = create("pi", {{"rate_min", "2"}, {"rate_max", "1"}});
  EXPECT_EQ(c->status, ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(c->message.find("'rate_min'"), std::string::npos) << c->message;
  EXPECT_NE(c->message.find("'rate_max'"), std::string::npos) << c->message;
}

// options_help is the list of keys: each key set to its documented default is accepted.
TEST(PiOptions, EveryKeyInTheHelpIsAcceptedWithItsDefault) {
  auto lib = library("pi");
  std::istringstream help(lib->pacer_factory().options_help);
  Options all;
  std::string line;
  while (std::getline(help, line)) {
    const auto eq = line.find('=');
    const auto space = line.find(' ');
    ASSERT_NE(eq, std::string::npos) << line;
    all.emplace_back(line.substr(0, eq), line.substr(eq + 1, space - eq - 1));
  }
  EXPECT_EQ(all.size(), 22u);
  auto c = create("pi", all);
  EXPECT_EQ(c->status, ZKP_OK) << c->message;
}

// The same for fixed: its one option, at the default the help gives, is accepted.
TEST(FixedOptions, TheKeyInTheHelpIsAcceptedWithItsDefault) {
  const std::string help = library("fixed")->pacer_factory().options_help;
  EXPECT_TRUE(help.starts_with("interval_ms=1000 ")) << help;
  EXPECT_NE(help.find("[1, 86400000]"), std::string::npos) << help;
  auto c = create("fixed", {{"interval_ms", "1000"}});
  EXPECT_EQ(c->status, ZKP_OK) << c->message;
  EXPECT_STREQ(library("greedy")->pacer_factory().options_help, "(no options)\n");
}

TEST(PiOptions, FactsWithoutGpuWorkersAreRejected) {
  auto c = create("pi", {}, facts(0, 2));
  EXPECT_EQ(c->status, ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(c->message.find("pacer 'pi'"), std::string::npos) << c->message;
  EXPECT_NE(c->message.find("device_count=0"), std::string::npos) << c->message;
}

TEST(PiPlugin, AnswersTheRemainingTimeAndWaitsForTheGpuAfterBootstrap) {
  auto c = create("pi", {{"target_waiting", "2"}, {"bootstrap_spacing_ms", "3000"}});
  ASSERT_EQ(c->status, ZKP_OK) << c->message;
  zkp_pacer_t* p = c->pacer;
  EXPECT_STREQ(p->name, "pi");
  EXPECT_EQ(ask(p, state(0)), 0u);
  send(p, ZKP_PACER_EVENT_ADMITTED, state(0, 1));
  send(p, ZKP_PACER_EVENT_SYNTHESIS_DONE, state(1 * kS, 0, 1));
  EXPECT_EQ(ask(p, state(1200 * kMs, 0, 0, 1)), 1800 * kMs);
  send(p, ZKP_PACER_EVENT_ADMITTED, state(3 * kS, 1, 0, 1));
  EXPECT_EQ(ask(p, state(4 * kS, 1, 0, 1)), ZKP_PACER_WAIT_FOR_EVENT);
  send(p, ZKP_PACER_EVENT_GPU_DONE, state(5 * kS, 1, 0, 0), 1 * kS);
  EXPECT_EQ(ask(p, state(5 * kS, 1)), 0u);
}

TEST(PiPlugin, StatusLineCarriesTheFiguresAndIsLoggedEveryFewAdmissions) {
  auto c = create("pi", {{"status_every", "2"}});
  ASSERT_EQ(c->status, ZKP_OK) << c->message;
  zkp_pacer_t* p = c->pacer;
  send(p, ZKP_PACER_EVENT_ADMITTED, state(0, 1));
  EXPECT_TRUE(c->sink.lines.empty());
  send(p, ZKP_PACER_EVENT_ADMITTED, state(3 * kS, 2));
  ASSERT_EQ(c->sink.lines.size(), 1u);
  char buf[512];
  const size_t need = p->status_line(p, buf, sizeof buf);
  const std::string line = buf;
  EXPECT_EQ(need, line.size());
  for (const char* field : {"admitted=2", "waiting=", "ema_waiting=", "gpu_proc_ms=", "gpu_eff_ms=", "interval_ms=",
                            "integral=", "kp_eff=0.0500", "dead_time_ms=0", "synthesizing=2",
                            "budget_gib=9.0/400.0"}) {
    EXPECT_NE(line.find(field), std::string::npos) << field << " in " << line;
  }
  // A short buffer gets a truncated, terminated line and the length the whole one needs.
  char small[8];
  EXPECT_EQ(p->status_line(p, small, sizeof small), need);
  EXPECT_EQ(std::string(small).size(), sizeof small - 1);
}

// SYNTHESIS_DONE carries the dead time and GPU_DONE the GPU rate: on 8 devices x 2 workers
// (G = 16 / 1.2 s), a 40 s synthesis puts K x D at 0.05 x 13.3 x 40 / 8 = 3.3 with the
// configured kp, so the schedule brings kp down to loop_gain x 8 / (13.3 x 40) = 0.0090.
// With gain_schedule=false the same events leave kp at 0.05. (Against the one target 8,
// the reference's: target_per_worker would make it 64 and K x D eight times smaller.)
TEST(PiPlugin, SynthesisAndGpuEventsScheduleTheGainUnlessTurnedOff) {
  for (const bool scheduled : {true, false}) {
    auto c = create("pi",
                    {{"gain_schedule", scheduled ? "true" : "false"}, {"target_per_worker", "false"},
                     {"target_waiting", "8"}},
                    facts(8, 2));
    ASSERT_EQ(c->status, ZKP_OK) << c->message;
    zkp_pacer_t* p = c->pacer;
    send(p, ZKP_PACER_EVENT_ADMITTED, state(0, 1));
    send(p, ZKP_PACER_EVENT_SYNTHESIS_DONE, state(40 * kS, 0, 1), 40 * kS);
    send(p, ZKP_PACER_EVENT_GPU_DONE, state(41200 * kMs), 1200 * kMs);
    char buf[512];
    p->status_line(p, buf, sizeof buf);
    const std::string line = buf;
    EXPECT_NE(line.find("dead_time_ms=40000"), std::string::npos) << line;
    EXPECT_NE(line.find(scheduled ? "kp_eff=0.0090" : "kp_eff=0.0500"), std::string::npos) << line;
  }
}

TEST(FixedPlugin, AdmitsOnePartitionPerInterval) {
  auto c = create("fixed", {{"interval_ms", "1000"}});
  ASSERT_EQ(c->status, ZKP_OK) << c->message;
  zkp_pacer_t* p = c->pacer;
  EXPECT_EQ(ask(p, state(5 * kS)), 0u);
  send(p, ZKP_PACER_EVENT_ADMITTED, state(5 * kS, 1));
  send(p, ZKP_PACER_EVENT_GPU_DONE, state(5200 * kMs, 1), kS);  // events do not restart the interval
  EXPECT_EQ(ask(p, state(5400 * kMs, 1)), 600 * kMs);
  EXPECT_EQ(ask(p, state(6 * kS, 1)), 0u);
}

TEST(GreedyPlugin, AlwaysAdmits) {
  auto c = create("greedy", {});
  ASSERT_EQ(c->status, ZKP_OK) << c->message;
  zkp_pacer_t* p = c->pacer;
  send(p, ZKP_PACER_EVENT_ADMITTED, state(0, 1));
  EXPECT_EQ(ask(p, state(1, 1)), 0u);
}

}  // namespace
