// An "every N ms" pacer: admits one partition, then the next N ms after it, and so on.
// The README shows this file; a test keeps the two the same, and others run it through
// the pacing simulator and the host (samples/every_n_ms/CMakeLists.txt).
//
// The one thing to get right: next_admission_ns answers "how long from now", and a
// non-zero answer means "ask me again in that many ns" (zkp_pacer.h). A pacer that always
// answers N never admits anything; this one answers 0 once N ms have passed since its last
// admission, and the time remaining until then otherwise.
#include <zkpipe/sdk/pacer.hpp>
#include <zkpipe/sdk/plugin.hpp>

#include <string>

class EveryNMs final : public zkp::sdk::Pacer {
 public:
  static constexpr const char* kName = "every_n_ms";
  static constexpr const char* kOptionsHelp = "interval_ms=10  time between two admissions\n";

  EveryNMs(const zkp::sdk::HostServices&, const zkp_pacer_facts_t&, zkp::sdk::Options& options)
      : interval_ns_(options.get_u64("interval_ms", 10, 1, 3'600'000) * 1'000'000) {}

  void on_event(const zkp_pacer_event_t& event) override {
    if (event.kind != ZKP_PACER_EVENT_ADMITTED) return;
    admitted_ = true;
    last_admission_ns_ = event.state.now_ns;
  }

  uint64_t next_admission_ns(const zkp_pipeline_state_t& state) override {
    if (!admitted_) return 0;  // the first partition at once
    const uint64_t due_ns = last_admission_ns_ + interval_ns_;
    return state.now_ns >= due_ns ? 0 : due_ns - state.now_ns;  // 0: admit now
  }

  std::string status_line() override {
    std::string line = "every ";
    line += std::to_string(interval_ns_ / 1'000'000);
    line += " ms";
    return line;
  }

 private:
  uint64_t interval_ns_;
  bool admitted_ = false;
  uint64_t last_admission_ns_ = 0;
};

ZKP_PLUGIN("every_n_ms", "1.0.0", "admits one partition every N ms", zkp::sdk::PacerFactory<EveryNMs>);
