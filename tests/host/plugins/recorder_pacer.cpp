// The `recorder` pacer: checks, from the pacer's side of the ABI, the promises the host
// makes to every pacer, and reports what it saw in its status line (which the tests
// read through zkp_host_pacer_status):
//   - calls never overlap ([serialized]): `overlaps`
//   - each partition's events come in order ADMITTED → SYNTHESIS_DONE → GPU_START →
//     GPU_DONE, or FAILED at any point, and nothing after; REQUEUED (with a device) may
//     follow GPU_START and leads to another GPU_START: `order_errors`; `requeued` counts
//   - the snapshot never shows the budget over its total, and next_admission_ns is
//     only asked when something is pending and the budget could grant it: `violations`
//   - synthesizing + waiting + proving equals the partitions it saw admitted and not
//     finished: `mismatches` (cancelling one in the GPU queue opens a short window
//     where this differs, by design)
// It paces too: hold_ms (no admission before start + hold) and interval_ms (at least
// that long between admissions); with neither it admits greedily.
#include <zkpipe/sdk/pacer.hpp>
#include <zkpipe/sdk/plugin.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace {

using namespace zkp;

constexpr uint64_t kNsPerMs = 1'000'000;

class RecorderPacer final : public sdk::Pacer {
 public:
  static constexpr const char* kName = "recorder";
  static constexpr const char* kOptionsHelp =
      "hold_ms=0      admit nothing until this long after creation\n"
      "interval_ms=0  at least this long between two admissions\n";

  RecorderPacer(const sdk::HostServices& host, const zkp_pacer_facts_t& facts, sdk::Options& o)
      : start_ns_(facts.start_ns),
        hold_ns_(o.get_u64("hold_ms", 0, 0, 600'000) * kNsPerMs),
        interval_ns_(o.get_u64("interval_ms", 0, 0, 600'000) * kNsPerMs) {
    host.info("recording " + std::to_string(facts.device_count) + " device(s) x " +
              std::to_string(facts.workers_per_device) + " worker(s)");  // the host prefixes our name
  }

  void on_event(const zkp_pacer_event_t& e) override {
    Enter enter(*this);
    ++events_;
    const auto key = std::make_pair(e.job_id, e.partition);
    auto it = stage_.find(key);
    const int stage = it == stage_.end() ? 0 : it->second;
    switch (e.kind) {
      case ZKP_PACER_EVENT_ADMITTED:
        if (stage != 0) ++order_errors_;
        stage_[key] = 1;
        ++admitted_;
        if (admitted_ > 1) min_gap_ns_ = std::min(min_gap_ns_, e.state.now_ns - last_admission_ns_);
        last_admission_ns_ = e.state.now_ns;
        break;
      case ZKP_PACER_EVENT_SYNTHESIS_DONE:
        if (stage != 1) ++order_errors_;
        stage_[key] = 2;
        break;
      case ZKP_PACER_EVENT_GPU_START:
        if (stage != 2 || e.gpu_index < 0) ++order_errors_;
        stage_[key] = 3;
        break;
      case ZKP_PACER_EVENT_GPU_DONE:
        if (stage != 3 || e.gpu_index < 0) ++order_errors_;
        if (it != stage_.end()) stage_.erase(it);
        ++gpu_done_;
        break;
      case ZKP_PACER_EVENT_REQUEUED:
        if (stage != 3 || e.gpu_index < 0) ++order_errors_;
        stage_[key] = 2;
        ++requeued_;
        break;
      case ZKP_PACER_EVENT_FAILED:
        if (it != stage_.end()) stage_.erase(it);
        ++failed_;
        break;
      default:
        ++order_errors_;
    }
    if (e.state.budget_used_bytes > e.state.budget_total_bytes) ++violations_;
    const uint64_t in_flight = e.state.synthesizing + e.state.waiting + e.state.proving;
    if (in_flight != stage_.size()) ++mismatches_;
  }

  uint64_t next_admission_ns(const zkp_pipeline_state_t& s) override {
    Enter enter(*this);
    ++asks_;
    if (s.pending == 0 || s.next_partition_bytes > s.budget_total_bytes - s.budget_used_bytes) ++violations_;
    uint64_t at = start_ns_ + hold_ns_;
    if (admitted_ > 0) at = std::max(at, last_admission_ns_ + interval_ns_);
    return at > s.now_ns ? at - s.now_ns : 0;
  }

  std::string status_line() override {
    Enter enter(*this);
    char line[320];
    std::snprintf(line, sizeof line,
                  "recorder: events=%llu admitted=%llu gpu_done=%llu failed=%llu requeued=%llu asks=%llu overlaps=%llu "
                  "order_errors=%llu violations=%llu mismatches=%llu min_gap_ns=%llu",
                  u(events_), u(admitted_), u(gpu_done_), u(failed_), u(requeued_), u(asks_), u(overlaps_.load()),
                  u(order_errors_), u(violations_), u(mismatches_), u(admitted_ > 1 ? min_gap_ns_ : 0));
    return line;
  }

 private:
  // Counts calls that start while another is still running.
  struct Enter {
    explicit Enter(RecorderPacer& p) : pacer(p) {
      if (pacer.inside_.exchange(true)) pacer.overlaps_.fetch_add(1);
    }
    ~Enter() { pacer.inside_.store(false); }
    RecorderPacer& pacer;
  };

  static unsigned long long u(uint64_t v) { return static_cast<unsigned long long>(v); }

  uint64_t start_ns_;
  uint64_t hold_ns_;
  uint64_t interval_ns_;
  std::atomic<bool> inside_{false};
  std::atomic<uint64_t> overlaps_{0};
  std::map<std::pair<uint64_t, uint32_t>, int> stage_;
  uint64_t events_ = 0, admitted_ = 0, gpu_done_ = 0, failed_ = 0, requeued_ = 0, asks_ = 0;
  uint64_t order_errors_ = 0, violations_ = 0, mismatches_ = 0;
  uint64_t last_admission_ns_ = 0;
  uint64_t min_gap_ns_ = UINT64_MAX;
};

}  // namespace

ZKP_PLUGIN("recorder", "1.0.0", "test pacer: checks the host's promises to pacers and paces by hold/interval",
           zkp::sdk::PacerFactory<RecorderPacer>);
