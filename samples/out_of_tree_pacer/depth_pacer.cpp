// The "depth" pacer, an out-of-tree sample built against an installed zkpipe only: it admits
// while the partitions ahead of the GPUs (synthesizing or waiting in the GPU queue) are fewer
// than `depth`, and otherwise waits for the next event. One partition ready per GPU worker
// (the default depth) keeps every worker fed without greedy's long queues and memory peaks,
// when synthesis is not the bottleneck.
#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/pacer.hpp>
#include <zkpipe/sdk/plugin.hpp>

#include <cstdio>

namespace {

struct DepthSettings {
  uint64_t depth = 0;  // 0: one per GPU worker (device_count * workers_per_device)
};

class DepthPacer final : public zkp::sdk::Pacer {
 public:
  static constexpr const char* kName = "depth";

  static const zkp::sdk::OptionTable<DepthSettings>& option_table() {
    static const zkp::sdk::OptionTable<DepthSettings> table{
        zkp::sdk::integer("depth", &DepthSettings::depth, 0, 1u << 20,
                          "most partitions synthesizing or queued for a GPU; 0: one per GPU worker"),
    };
    return table;
  }

  DepthPacer(const zkp::sdk::HostServices&, const zkp_pacer_facts_t& facts, zkp::sdk::Options& options)
      : depth_(option_table().read(options).depth) {
    if (depth_ == 0) depth_ = uint64_t{facts.device_count} * facts.workers_per_device;
    if (depth_ == 0) depth_ = 1;  // a host that reports no workers still gets a pipeline
  }

  void on_event(const zkp_pacer_event_t& e) override {
    if (e.kind == ZKP_PACER_EVENT_ADMITTED) ++admitted_;
  }

  uint64_t next_admission_ns(const zkp_pipeline_state_t& s) override {
    ahead_ = uint64_t{s.synthesizing} + s.waiting;
    if (ahead_ < depth_) return 0;
    ++held_;
    return ZKP_PACER_WAIT_FOR_EVENT;  // a synthesis or a GPU finishing changes the answer
  }

  std::string status_line() override {
    char line[128];
    std::snprintf(line, sizeof line, "depth: %llu ahead of the GPUs (at most %llu), admitted=%llu held=%llu",
                  static_cast<unsigned long long>(ahead_), static_cast<unsigned long long>(depth_),
                  static_cast<unsigned long long>(admitted_), static_cast<unsigned long long>(held_));
    return line;
  }

 private:
  uint64_t depth_;
  uint64_t ahead_ = 0, admitted_ = 0, held_ = 0;
};

}  // namespace

ZKP_PLUGIN("depth", "0.1.0", "Admits while fewer than `depth` partitions are ahead of the GPUs (an out-of-tree sample)",
           zkp::sdk::PacerFactory<DepthPacer>);
