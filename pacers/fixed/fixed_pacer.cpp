// The `fixed` pacer: one admission every interval_ms, whatever the pipeline does. An
// open-loop reference point between `greedy` (no pacing) and `pi` (closed loop): right
// only when the interval matches the bottleneck, which is exactly what it cannot measure.
#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/pacer.hpp>
#include <zkpipe/sdk/plugin.hpp>

#include <cstdio>

namespace {

constexpr uint64_t kNsPerMs = 1'000'000;
constexpr uint64_t kDefaultIntervalMs = 1'000;
constexpr uint64_t kMaxIntervalMs = 24ull * 3600 * 1000;  // a day: longer is a typo

struct FixedSettings {
  uint64_t interval_ns = kDefaultIntervalMs * kNsPerMs;
};

class FixedPacer final : public zkp::sdk::Pacer {
 public:
  static constexpr const char* kName = "fixed";

  static const zkp::sdk::OptionTable<FixedSettings>& option_table() {
    static const zkp::sdk::OptionTable<FixedSettings> table{
        zkp::sdk::integer("interval_ms", &FixedSettings::interval_ns, 1, kMaxIntervalMs, "time between admissions",
                          kNsPerMs),
    };
    return table;
  }

  FixedPacer(const zkp::sdk::HostServices&, const zkp_pacer_facts_t&, zkp::sdk::Options& options)
      : interval_ns_(option_table().read(options).interval_ns) {}

  void on_event(const zkp_pacer_event_t& e) override {
    last_ = e.state;
    if (e.kind != ZKP_PACER_EVENT_ADMITTED) return;
    ++admitted_;
    last_admission_ns_ = e.state.now_ns;
  }

  // The time left until one interval after the last admission.
  uint64_t next_admission_ns(const zkp_pipeline_state_t& s) override {
    last_ = s;
    if (admitted_ == 0) return 0;
    const uint64_t elapsed = s.now_ns > last_admission_ns_ ? s.now_ns - last_admission_ns_ : 0;
    return elapsed >= interval_ns_ ? 0 : interval_ns_ - elapsed;
  }

  std::string status_line() override {
    char line[160];
    std::snprintf(line, sizeof line, "fixed: interval_ms=%llu admitted=%llu waiting=%u synthesizing=%u",
                  static_cast<unsigned long long>(interval_ns_ / kNsPerMs),
                  static_cast<unsigned long long>(admitted_), last_.waiting, last_.synthesizing);
    return line;
  }

 private:
  uint64_t interval_ns_;
  uint64_t admitted_ = 0;
  uint64_t last_admission_ns_ = 0;
  zkp_pipeline_state_t last_{};
};

}  // namespace

ZKP_PLUGIN("fixed", "1.0.0", "Admits one partition every interval_ms (open loop)",
           zkp::sdk::PacerFactory<FixedPacer>);
