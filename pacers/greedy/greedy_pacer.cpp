// The `greedy` pacer: admit whenever the memory budget allows. It is the baseline every
// other pacer is judged against (PACING.md): maximal throughput when synthesis is the
// bottleneck, and the longest GPU queues, latencies and memory peaks everywhere else.
#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/pacer.hpp>
#include <zkpipe/sdk/plugin.hpp>

#include <cstdio>

namespace {

struct GreedySettings {};

class GreedyPacer final : public zkp::sdk::Pacer {
 public:
  static constexpr const char* kName = "greedy";

  // None: every option is unknown, and the help says "(no options)".
  static const zkp::sdk::OptionTable<GreedySettings>& option_table() {
    static const zkp::sdk::OptionTable<GreedySettings> table{};
    return table;
  }

  GreedyPacer(const zkp::sdk::HostServices&, const zkp_pacer_facts_t&, zkp::sdk::Options& options) {
    option_table().read(options);
  }

  void on_event(const zkp_pacer_event_t& e) override {
    if (e.kind == ZKP_PACER_EVENT_ADMITTED) ++admitted_;
    last_ = e.state;
  }

  // The host asks only when the budget could grant the next partition: always yes.
  uint64_t next_admission_ns(const zkp_pipeline_state_t&) override { return 0; }

  std::string status_line() override {
    char line[160];
    std::snprintf(line, sizeof line, "greedy: admitted=%llu waiting=%u synthesizing=%u budget=%llu/%llu",
                  static_cast<unsigned long long>(admitted_), last_.waiting, last_.synthesizing,
                  static_cast<unsigned long long>(last_.budget_used_bytes),
                  static_cast<unsigned long long>(last_.budget_total_bytes));
    return line;
  }

 private:
  uint64_t admitted_ = 0;
  zkp_pipeline_state_t last_{};
};

}  // namespace

ZKP_PLUGIN("greedy", "1.0.0", "Admits a partition whenever the memory budget allows (baseline)",
           zkp::sdk::PacerFactory<GreedyPacer>);
