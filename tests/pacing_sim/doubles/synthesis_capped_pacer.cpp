#include "synthesis_capped_pacer.hpp"

#include <algorithm>

namespace zkp::pacing_sim {

namespace {

// The reference's monitoring EMA: weight 0.25, the first 8 completions ignored.
constexpr double kSynthesisAlpha = 0.25;
constexpr uint64_t kSynthesisWarmup = 8;

class SynthesisCappedPacer final : public zkp::sdk::Pacer {
 public:
  static constexpr const char* kName = "pi+synthesis-cap (test double)";
  static const auto& option_table() { return zkp::pacing::PiPacer::option_table(); }

  SynthesisCappedPacer(const zkp::sdk::HostServices& host, const zkp_pacer_facts_t& facts,
                       zkp::sdk::Options& options)
      : pi_(host, facts, options), last_synthesis_update_ns_(facts.start_ns) {}

  void on_event(const zkp_pacer_event_t& e) override {
    pi_.on_event(e);
    if (e.kind == ZKP_PACER_EVENT_SYNTHESIS_DONE) ++synthesis_count_;
    if (e.kind == ZKP_PACER_EVENT_ADMITTED || e.kind == ZKP_PACER_EVENT_GPU_DONE) update_cap(e.state.now_ns);
  }

  uint64_t next_admission_ns(const zkp_pipeline_state_t& s) override {
    const uint64_t wait = pi_.next_admission_ns(s);
    const auto& c = pi_.controller();
    if (wait == ZKP_PACER_WAIT_FOR_EVENT || c.phase() != zkp::pacing::PiPhase::kSteady || !cap_known_) return wait;
    const auto cap_ns = static_cast<uint64_t>(synthesis_interval_s_ * zkp::pacing::kNsPerSecond);
    const uint64_t interval = std::min(std::max(c.interval_ns(), cap_ns), c.config().interval_max_ns);
    const uint64_t elapsed = s.now_ns > c.last_admission_ns() ? s.now_ns - c.last_admission_ns() : 0;
    return elapsed >= interval ? 0 : interval - elapsed;
  }

  std::string status_line() override { return pi_.status_line(); }

 private:
  // The reference's measurement: time since the last update that saw completions,
  // divided by the completions since then (so idle time counts as slow synthesis).
  void update_cap(uint64_t now_ns) {
    const uint64_t fresh = synthesis_count_ - seen_count_;
    if (fresh == 0) return;
    seen_count_ = synthesis_count_;
    const double interval_s =
        static_cast<double>(now_ns - last_synthesis_update_ns_) / zkp::pacing::kNsPerSecond / static_cast<double>(fresh);
    last_synthesis_update_ns_ = now_ns;
    if (seen_count_ <= kSynthesisWarmup) return;
    synthesis_interval_s_ =
        cap_known_ ? kSynthesisAlpha * interval_s + (1.0 - kSynthesisAlpha) * synthesis_interval_s_ : interval_s;
    cap_known_ = true;
  }

  zkp::pacing::PiPacer pi_;
  uint64_t synthesis_count_ = 0;
  uint64_t seen_count_ = 0;
  uint64_t last_synthesis_update_ns_;
  bool cap_known_ = false;
  double synthesis_interval_s_ = 0.0;
};

}  // namespace

const zkp_pacer_factory_t& synthesis_capped_pacer_factory() {
  return zkp::sdk::PacerFactory<SynthesisCappedPacer>::table;
}

}  // namespace zkp::pacing_sim
