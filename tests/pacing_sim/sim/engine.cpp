#include "engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <queue>
#include <stdexcept>

namespace zkp::pacing_sim {

namespace {

uint64_t to_ns(double seconds) { return static_cast<uint64_t>(std::llround(seconds * kNsPerS)); }

uint64_t add_sat(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

enum class EventKind : uint8_t { kJobArrival, kSynthesisDone, kGpuDone, kPacerWake, kSlowdownEdge, kDeviceLost };

struct Event {
  uint64_t t_ns;
  uint64_t seq;  // FIFO among events at the same instant: the run is deterministic
  EventKind kind;
  uint32_t a;    // job, partition, device or slowdown index
  uint32_t b;    // worker
  uint64_t generation;
  bool operator>(const Event& o) const { return t_ns != o.t_ns ? t_ns > o.t_ns : seq > o.seq; }
};

struct Worker {
  bool busy = false;
  uint32_t partition = 0;
  double remaining_ns = 0.0;    // GPU work left, in ns of running alone at full speed
  double contended_rate = 1.0;  // gpu_alone / gpu_busy of its partition's class
};

struct Device {
  std::vector<Worker> workers;
  uint32_t busy = 0;
  uint64_t last_ns = 0;   // work is accounted up to here
  uint64_t generation = 0;
  double slowdown = 1.0;  // product of the slowdowns in force
  double speed = 1.0;     // the scenario's device speed
  bool lost = false;      // takes no new work
};

// The host's services for the pacer: a log that stamps virtual time, and the virtual clock.
struct HostContext {
  RunTrace* trace = nullptr;
  const uint64_t* now_ns = nullptr;
};

void ZKP_CALL host_log(void* data, zkp_log_level_t level, const char* message) {
  auto* h = static_cast<HostContext*>(data);
  static const char* const kLevels[] = {"trace", "debug", "info", "warn", "error"};
  const char* name = level >= ZKP_LOG_TRACE && level <= ZKP_LOG_ERROR ? kLevels[level] : "log";
  char stamp[48];
  std::snprintf(stamp, sizeof stamp, "[%10.3f s] %s: ", static_cast<double>(*h->now_ns) / kNsPerS, name);
  h->trace->log.push_back(std::string(stamp) + (message != nullptr ? message : ""));
}

uint64_t ZKP_CALL host_now(void* data) { return *static_cast<HostContext*>(data)->now_ns; }

class Engine {
 public:
  Engine(const Scenario& s, const Workload& w, const PacerSpec& spec) : s_(s), w_(w) {
    trace_.pacer = spec.label;
    trace_.partitions.resize(w.partitions.size());
    for (size_t i = 0; i < w.partitions.size(); ++i) trace_.partitions[i].submit_ns = w.partitions[i].submit_ns;
    budget_total_ = static_cast<uint64_t>(std::llround(s.budget_gib * kBytesPerGiB));
    pool_free_.assign(s.classes.size(), s.pinned_prewarm);
    stall_mark_.assign(w.partitions.size(), false);
    devices_.resize(s.devices);
    for (uint32_t i = 0; i < s.devices; ++i) {
      devices_[i].workers.resize(s.workers_per_device);
      devices_[i].speed = s.device_specs[i].speed;
    }
    synthesis_limit_ = s.synthesis_threads;

    host_ctx_ = {&trace_, &now_};
    host_ = zkp::sdk::make_struct<zkp_host_services_t>();
    host_.host_data = &host_ctx_;
    host_.log = &host_log;
    host_.now_ns = &host_now;
    create_pacer(spec);
  }

  ~Engine() {
    if (pacer_ != nullptr) pacer_->destroy(pacer_);
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  RunTrace run() {
    schedule_arrivals();
    for (uint32_t i = 0; i < s_.slowdowns.size(); ++i) {
      push(to_ns(s_.slowdowns[i].start_s), EventKind::kSlowdownEdge, i, 1, 0);
      push(to_ns(s_.slowdowns[i].end_s), EventKind::kSlowdownEdge, i, 0, 0);
    }
    for (uint32_t i = 0; i < s_.devices; ++i) {
      const double lost = s_.device_specs[i].lost_at_s;
      if (lost != std::numeric_limits<double>::infinity()) push(to_ns(lost), EventKind::kDeviceLost, i, 0, 0);
    }
    const uint64_t max_ns = to_ns(s_.max_time_s);
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      if (e.t_ns > max_ns) {
        trace_.timed_out = true;
        break;
      }
      now_ = e.t_ns;
      if (!handle(e)) continue;  // not a host event: the pacer hears nothing
      trace_.end_ns = now_;
      admit_while_pacer_agrees();
      record_sample();
    }
    char status[1024];
    pacer_->status_line(pacer_, status, sizeof status);
    trace_.final_status = status;
    return std::move(trace_);
  }

 private:
  void create_pacer(const PacerSpec& spec) {
    if (spec.factory == nullptr) throw std::runtime_error(spec.label + ": no pacer factory");
    zkp_pacer_facts_t facts = zkp::sdk::make_struct<zkp_pacer_facts_t>();
    facts.device_count = s_.devices;
    facts.workers_per_device = s_.workers_per_device;
    double largest = 0.0;
    for (const auto& c : s_.classes) largest = std::max(largest, c.gib);
    facts.synthesis_threads =
        s_.synthesis_threads != 0 ? s_.synthesis_threads : static_cast<uint32_t>(s_.budget_gib / largest);
    facts.budget_bytes = budget_total_;
    facts.start_ns = 0;
    std::vector<zkp_option_t> opts;
    for (const auto& [k, v] : spec.options) opts.push_back({k.c_str(), v.c_str()});
    zkp_error_t err = zkp::sdk::make_struct<zkp_error_t>();
    if (spec.factory->create(&host_, &facts, opts.data(), opts.size(), &pacer_, &err) != ZKP_OK) {
      pacer_ = nullptr;
      throw std::runtime_error(err.message);
    }
  }

  void push(uint64_t t, EventKind kind, uint32_t a, uint32_t b, uint64_t generation) {
    events_.push(Event{t, seq_++, kind, a, b, generation});
  }

  void schedule_arrivals() {
    const auto& parts = w_.partitions;
    for (size_t i = 0; i < parts.size();) {
      size_t j = i;
      while (j < parts.size() && parts[j].job == parts[i].job) ++j;
      push(parts[i].submit_ns, EventKind::kJobArrival, static_cast<uint32_t>(i), static_cast<uint32_t>(j - i), 0);
      i = j;
    }
  }

  // Returns whether the event is one the host would act on.
  bool handle(const Event& e) {
    switch (e.kind) {
      case EventKind::kJobArrival:
        for (uint32_t k = 0; k < e.b; ++k) pending_.push_back(e.a + k);
        return true;
      case EventKind::kSynthesisDone:
        synthesis_done(e.a);
        return true;
      case EventKind::kGpuDone:
        if (e.generation != devices_[e.a].generation) return false;
        gpu_done(e.a, e.b);
        return true;
      case EventKind::kPacerWake:
        return e.generation == wake_generation_;
      case EventKind::kSlowdownEdge:
        slowdown_edge(s_.slowdowns[e.a], e.b != 0);
        return false;
      case EventKind::kDeviceLost:
        devices_[e.a].lost = true;  // the host sees nothing: only the completions stop
        return false;
    }
    return false;
  }

  zkp_pipeline_state_t state() const {
    zkp_pipeline_state_t st = zkp::sdk::make_struct<zkp_pipeline_state_t>();
    st.now_ns = now_;
    st.pending = static_cast<uint32_t>(pending_.size());
    st.synthesizing = synthesizing_;
    st.waiting = static_cast<uint32_t>(gpu_queue_.size());
    st.proving = proving_;
    st.budget_used_bytes = budget_used_;
    st.budget_total_bytes = budget_total_;
    st.next_partition_bytes = pending_.empty() ? 0 : w_.partitions[pending_.front()].bytes;
    return st;
  }

  void emit(zkp_pacer_event_kind_t kind, uint32_t p, int32_t device, uint32_t worker, uint64_t gpu_ns,
            uint64_t synthesis_ns) {
    zkp_pacer_event_t ev = zkp::sdk::make_struct<zkp_pacer_event_t>();
    ev.kind = kind;
    ev.job_id = w_.partitions[p].job;
    ev.partition = w_.partitions[p].index;
    ev.gpu_index = device;
    ev.worker = worker;
    ev.gpu_duration_ns = gpu_ns;
    ev.synthesis_ns = synthesis_ns;
    ev.bytes = w_.partitions[p].bytes;
    ev.state = state();
    pacer_->on_event(pacer_, &ev);
  }

  bool budget_grants() const {
    return !pending_.empty() && budget_used_ + w_.partitions[pending_.front()].bytes <= budget_total_;
  }

  bool synthesis_thread_free() const { return synthesis_limit_ == 0 || synthesis_running_ < synthesis_limit_; }

  void admit_while_pacer_agrees() {
    while (budget_grants()) {
      const zkp_pipeline_state_t st = state();
      const uint64_t wait = pacer_->next_admission_ns(pacer_, &st);
      ++trace_.asks;
      if (wait == 0) {
        admit();
        continue;
      }
      ++wake_generation_;  // only the latest answer's wake-up counts
      if (wait != ZKP_PACER_WAIT_FOR_EVENT) push(add_sat(now_, wait), EventKind::kPacerWake, 0, 0, wake_generation_);
      return;
    }
  }

  void admit() {
    const uint32_t p = pending_.front();
    pending_.pop_front();
    const WorkPartition& wp = w_.partitions[p];
    budget_used_ += wp.bytes;
    trace_.peak_budget_used = std::max(trace_.peak_budget_used, budget_used_);
    take_pinned_buffer(p);
    ++synthesizing_;
    trace_.partitions[p].admit_ns = now_;
    trace_.admissions_ns.push_back(now_);
    emit(ZKP_PACER_EVENT_ADMITTED, p, -1, 0, 0, 0);
    if (synthesis_thread_free()) {
      start_synthesis(p);
    } else {
      synthesis_queue_.push_back(p);
    }
  }

  void take_pinned_buffer(uint32_t p) {
    const uint32_t cls = w_.partitions[p].class_index;
    if (pool_free_[cls] > 0) {
      --pool_free_[cls];
      return;
    }
    ++trace_.pinned_allocations;
    const uint64_t window = static_cast<uint64_t>(std::llround(s_.pinned_stall_window_ms * kNsPerMs));
    while (!recent_allocations_.empty() && now_ - recent_allocations_.front().first >= window) {
      recent_allocations_.pop_front();
    }
    if (!recent_allocations_.empty()) {
      stall_mark_[p] = true;
      for (const auto& r : recent_allocations_) stall_mark_[r.second] = true;
    }
    recent_allocations_.emplace_back(now_, p);
  }

  void start_synthesis(uint32_t p) {
    ++synthesis_running_;
    push(add_sat(now_, w_.partitions[p].synthesis_ns), EventKind::kSynthesisDone, p, 0, 0);
  }

  void synthesis_done(uint32_t p) {
    --synthesis_running_;
    --synthesizing_;
    gpu_queue_.push_back(p);
    trace_.partitions[p].synthesis_done_ns = now_;
    emit(ZKP_PACER_EVENT_SYNTHESIS_DONE, p, -1, 0, 0, w_.partitions[p].synthesis_ns);
    if (!synthesis_queue_.empty() && synthesis_thread_free()) {
      const uint32_t next = synthesis_queue_.front();
      synthesis_queue_.pop_front();
      start_synthesis(next);
    }
    start_gpu_work();
  }

  double rate(const Device& d, const Worker& w) const {
    return (d.busy >= 2 ? w.contended_rate : 1.0) * d.speed / d.slowdown;
  }

  // Accounts the work done on `d` since its last change, at the rates that held.
  void advance(Device& d) {
    const double dt = static_cast<double>(now_ - d.last_ns);
    for (auto& w : d.workers) {
      if (w.busy) w.remaining_ns -= rate(d, w) * dt;
    }
    d.last_ns = now_;
  }

  // New completion times after a change on `d`; events of the old generation are stale.
  void reschedule(uint32_t device) {
    Device& d = devices_[device];
    ++d.generation;
    for (uint32_t k = 0; k < d.workers.size(); ++k) {
      const Worker& w = d.workers[k];
      if (!w.busy) continue;
      const double left = std::max(0.0, w.remaining_ns) / rate(d, w);
      push(add_sat(now_, static_cast<uint64_t>(std::ceil(left))), EventKind::kGpuDone, device, k, d.generation);
    }
  }

  void start_gpu_work() {
    while (!gpu_queue_.empty()) {
      int32_t best = -1;
      for (uint32_t i = 0; i < devices_.size(); ++i) {
        if (!devices_[i].lost && devices_[i].busy < devices_[i].workers.size() &&
            (best < 0 || devices_[i].busy < devices_[best].busy)) {
          best = static_cast<int32_t>(i);
        }
      }
      if (best < 0) return;
      Device& d = devices_[best];
      uint32_t k = 0;
      while (d.workers[k].busy) ++k;
      const uint32_t p = gpu_queue_.front();
      gpu_queue_.pop_front();
      const PartitionClass& c = s_.classes[w_.partitions[p].class_index];
      advance(d);
      Worker& w = d.workers[k];
      w.busy = true;
      w.partition = p;
      w.contended_rate = c.gpu_alone_ms / c.gpu_busy_ms;
      w.remaining_ns = c.gpu_alone_ms * kNsPerMs * (stall_mark_[p] ? s_.pinned_stall_factor : 1.0);
      ++d.busy;
      ++proving_;
      reschedule(static_cast<uint32_t>(best));
      PartitionRecord& r = trace_.partitions[p];
      r.gpu_start_ns = now_;
      r.device = best;
      r.pinned_stall = stall_mark_[p] && s_.pinned_stall_factor != 1.0;
      emit(ZKP_PACER_EVENT_GPU_START, p, best, k, 0, 0);
    }
  }

  void gpu_done(uint32_t device, uint32_t k) {
    Device& d = devices_[device];
    advance(d);
    Worker& w = d.workers[k];
    const uint32_t p = w.partition;
    w.busy = false;
    --d.busy;
    --proving_;
    reschedule(device);
    const WorkPartition& wp = w_.partitions[p];
    budget_used_ -= wp.bytes;
    ++pool_free_[wp.class_index];
    PartitionRecord& r = trace_.partitions[p];
    r.gpu_done_ns = now_;
    emit(ZKP_PACER_EVENT_GPU_DONE, p, static_cast<int32_t>(device), k, now_ - r.gpu_start_ns, 0);
    start_gpu_work();
  }

  void slowdown_edge(const Slowdown& sd, bool starts) {
    for (uint32_t i = 0; i < devices_.size(); ++i) {
      if (sd.device >= 0 && static_cast<uint32_t>(sd.device) != i) continue;
      Device& d = devices_[i];
      advance(d);
      d.slowdown = starts ? d.slowdown * sd.factor : d.slowdown / sd.factor;
      reschedule(i);
    }
  }

  void record_sample() {
    StateSample x;
    x.t_ns = now_;
    x.pending = static_cast<uint32_t>(pending_.size());
    x.synthesizing = synthesizing_;
    x.waiting = static_cast<uint32_t>(gpu_queue_.size());
    x.proving = proving_;
    x.budget_used = budget_used_;
    x.admissible = budget_grants() && synthesis_thread_free() && synthesis_queue_.empty();
    for (const auto& d : devices_) x.idle_devices += d.busy == 0 && !d.lost ? 1 : 0;
    auto& v = trace_.samples;
    if (!v.empty() && v.back().t_ns == now_) {
      v.back() = x;  // the state an instant holds is the last one
    } else {
      v.push_back(x);
    }
  }

  const Scenario& s_;
  const Workload& w_;
  RunTrace trace_;
  uint64_t now_ = 0;
  uint64_t seq_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;

  std::deque<uint32_t> pending_;
  std::deque<uint32_t> synthesis_queue_;
  std::deque<uint32_t> gpu_queue_;
  uint32_t synthesis_limit_ = 0;
  uint32_t synthesis_running_ = 0;
  uint32_t synthesizing_ = 0;
  uint32_t proving_ = 0;
  uint64_t budget_used_ = 0;
  uint64_t budget_total_ = 0;
  std::vector<Device> devices_;

  std::vector<uint32_t> pool_free_;
  std::deque<std::pair<uint64_t, uint32_t>> recent_allocations_;
  std::vector<bool> stall_mark_;

  HostContext host_ctx_;
  zkp_host_services_t host_{};
  zkp_pacer_t* pacer_ = nullptr;
  uint64_t wake_generation_ = 0;
};

}  // namespace

RunTrace simulate(const Scenario& scenario, const Workload& workload, const PacerSpec& pacer) {
  Engine engine(scenario, workload, pacer);
  return engine.run();
}

}  // namespace zkp::pacing_sim
