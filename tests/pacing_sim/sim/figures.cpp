#include "figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace zkp::pacing_sim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kJitterWindowS = 10.0;
constexpr double kPercent = 100.0;
constexpr double kP50 = 0.50;
constexpr double kP99 = 0.99;

double sec(uint64_t ns) { return static_cast<double>(ns) / kNsPerS; }

struct Interval {
  double a;
  double b;
};

// Integrals of one field of the sample step function, by prefix sums.
class StepIntegral {
 public:
  template <class Field>
  StepIntegral(const std::vector<StateSample>& samples, double end_s, Field field) {
    for (size_t i = 0; i < samples.size(); ++i) {
      t_.push_back(sec(samples[i].t_ns));
      v_.push_back(static_cast<double>(field(samples[i])));
    }
    t_.push_back(std::max(end_s, t_.empty() ? 0.0 : t_.back()));
    v_.push_back(0.0);
    cum_.assign(t_.size(), 0.0);
    for (size_t i = 1; i < t_.size(); ++i) cum_[i] = cum_[i - 1] + v_[i - 1] * (t_[i] - t_[i - 1]);
  }

  // Integral from the first sample to x.
  double at(double x) const {
    if (t_.empty() || x <= t_.front()) return 0.0;
    if (x >= t_.back()) return cum_.back();
    const size_t i = static_cast<size_t>(std::upper_bound(t_.begin(), t_.end(), x) - t_.begin()) - 1;
    return cum_[i] + v_[i] * (x - t_[i]);
  }

  double over(double a, double b) const { return at(b) - at(a); }

 private:
  std::vector<double> t_;
  std::vector<double> v_;
  std::vector<double> cum_;
};

// Integral of capacity(t) over [a, b), from per-second values.
class CapacityIntegral {
 public:
  explicit CapacityIntegral(std::vector<double> per_second) : c_(std::move(per_second)) {
    cum_.assign(c_.size() + 1, 0.0);
    for (size_t i = 0; i < c_.size(); ++i) cum_[i + 1] = cum_[i] + c_[i];
  }
  double at(double x) const {
    if (x <= 0.0) return 0.0;
    const size_t k = std::min(static_cast<size_t>(x), c_.size() - 1);
    return cum_[k] + c_[k] * (x - static_cast<double>(k));
  }
  double over(double a, double b) const { return at(b) - at(a); }

 private:
  std::vector<double> c_;
  std::vector<double> cum_;
};

// Sample standard deviation of busy fractions, in percentage points; NaN below two.
double stddev_pp(const std::vector<double>& xs) {
  if (xs.size() < 2) return kNaN;
  double mean = 0.0, var = 0.0;
  for (double x : xs) mean += x;
  mean /= static_cast<double>(xs.size());
  for (double x : xs) var += (x - mean) * (x - mean);
  return std::sqrt(var / static_cast<double>(xs.size() - 1)) * kPercent;
}

double mean_of(const std::vector<double>& xs) {
  double sum = 0.0;
  for (double x : xs) sum += x;
  return xs.empty() ? kNaN : sum / static_cast<double>(xs.size());
}

size_t count_in(const std::vector<double>& sorted, double a, double b) {
  return static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), b) -
                             std::lower_bound(sorted.begin(), sorted.end(), a));
}

}  // namespace

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return kNaN;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(p * static_cast<double>(values.size()));
  const size_t i = rank < 1.0 ? 0 : static_cast<size_t>(rank) - 1;
  return values[std::min(i, values.size() - 1)];
}

Figures compute_figures(const Scenario& s, const Workload& w, const RunTrace& tr) {
  Figures f;
  f.pacer = tr.pacer;
  f.submitted = w.partitions.size();
  f.nominal = nominal_capacity(s, w);
  f.budget_gib = s.budget_gib;
  f.peak_memory_gib = static_cast<double>(tr.peak_budget_used) / kBytesPerGiB;
  f.pinned_allocations = tr.pinned_allocations;
  f.asks = tr.asks;
  f.timed_out = tr.timed_out;

  std::vector<double> done_s, latency, e2e;
  double first_submit = kInf;
  for (const auto& r : tr.partitions) {
    first_submit = std::min(first_submit, sec(r.submit_ns));
    if (r.admit_ns != kNever) ++f.admitted;
    if (r.pinned_stall) ++f.pinned_stalls;
    if (r.gpu_done_ns == kNever) continue;
    ++f.completed;
    done_s.push_back(sec(r.gpu_done_ns));
    latency.push_back(sec(r.gpu_done_ns - r.admit_ns));
    e2e.push_back(sec(r.gpu_done_ns - r.submit_ns));
  }
  std::sort(done_s.begin(), done_s.end());
  f.makespan_s = done_s.empty() ? 0.0 : done_s.back() - first_submit;
  f.latency_p50_s = percentile(latency, kP50);
  f.latency_p99_s = percentile(latency, kP99);
  f.e2e_p50_s = percentile(e2e, kP50);
  f.e2e_p99_s = percentile(e2e, kP99);

  const auto& xs = tr.samples;
  const double end_s = sec(tr.end_ns);
  const StepIntegral waiting(xs, end_s, [](const StateSample& x) { return x.waiting; });
  const StepIntegral proving(xs, end_s, [](const StateSample& x) { return x.proving; });
  const CapacityIntegral cap(capacity_per_second(s, w, static_cast<size_t>(end_s) + 1));
  const uint32_t workers = s.devices * s.workers_per_device;

  // Busy periods, and the steady state inside them.
  std::vector<Interval> periods, steady;
  std::vector<size_t> steady_period;  // the busy period of each steady interval
  std::vector<double> backlogged_in_period;
  double period_start = kNaN;
  for (size_t i = 0; i < xs.size(); ++i) {
    const StateSample& x = xs[i];
    const double t0 = sec(x.t_ns);
    const double t1 = i + 1 < xs.size() ? sec(xs[i + 1].t_ns) : end_s;
    f.queue_max = std::max(f.queue_max, static_cast<double>(x.waiting));
    const bool busy = x.pending + x.synthesizing + x.waiting + x.proving > 0;
    if (busy && std::isnan(period_start)) {
      period_start = t0;
      backlogged_in_period.push_back(0.0);
    }
    if (!busy && !std::isnan(period_start)) {
      periods.push_back({period_start, t0});
      period_start = kNaN;
    }
    if (busy && x.pending > 0) {
      backlogged_in_period.back() += t1 - t0;
      const double a = std::max(t0, period_start + s.steady_warmup_s);
      if (a < t1) {
        if (!steady.empty() && steady.back().b == a) {
          steady.back().b = t1;
        } else {
          steady.push_back({a, t1});
          steady_period.push_back(backlogged_in_period.size() - 1);
        }
      }
    }
  }
  if (!std::isnan(period_start)) periods.push_back({period_start, end_s});

  double steady_capacity = 0.0, queue_area = 0.0;
  std::vector<double> busy_fractions;
  std::vector<double> period_done(periods.size(), 0.0), period_capacity(periods.size(), 0.0);
  for (size_t k = 0; k < steady.size(); ++k) {
    const Interval& iv = steady[k];
    const double done = static_cast<double>(count_in(done_s, iv.a, iv.b));
    f.steady_s += iv.b - iv.a;
    f.steady_completions += done;
    steady_capacity += cap.over(iv.a, iv.b);
    period_done[steady_period[k]] += done;
    period_capacity[steady_period[k]] += cap.over(iv.a, iv.b);
    queue_area += waiting.over(iv.a, iv.b);
    for (double t = iv.a; t + kJitterWindowS <= iv.b; t += kJitterWindowS) {
      busy_fractions.push_back(proving.over(t, t + kJitterWindowS) / (workers * kJitterWindowS));
    }
  }
  f.steady_fraction = steady_capacity > 0.0 ? f.steady_completions / steady_capacity : kNaN;
  for (size_t k = 0; k < periods.size(); ++k) {
    f.steady_fraction_by_period.push_back(period_capacity[k] > 0.0 ? period_done[k] / period_capacity[k] : kNaN);
  }
  f.queue_mean = f.steady_s > 0.0 ? queue_area / f.steady_s : kNaN;
  f.gpu_busy_mean = mean_of(busy_fractions);
  f.jitter_pp = stddev_pp(busy_fractions);

  // Time to reach full throughput in each busy period.
  const double window = s.recovery_window_s;
  for (size_t k = 0; k < periods.size(); ++k) {
    const Interval& p = periods[k];
    double reached = backlogged_in_period[k] >= window ? kInf : kNaN;
    for (double t = p.a; t + window <= p.b; t += 1.0) {
      if (static_cast<double>(count_in(done_s, t, t + window)) >= s.recovery_fraction * cap.over(t, t + window)) {
        reached = t - p.a;
        break;
      }
    }
    if (k == 0) {
      f.time_to_steady_s = reached;
    } else {
      f.recover_s.push_back(reached);
    }
  }

  // Collapses.
  double mean_alone_s = 0.0;
  for (const auto& p : w.partitions) mean_alone_s += s.classes[p.class_index].gpu_alone_ms / kMsPerS;
  mean_alone_s /= std::max<double>(1.0, static_cast<double>(w.partitions.size()));
  const double threshold = s.collapse_gpu_intervals * mean_alone_s;
  const double grace = s.longest_synthesis_s();
  double admissible_since = kNaN, stretch_a = kNaN, stretch_b = kNaN;
  auto close_stretch = [&] {
    if (std::isnan(stretch_a)) return;
    const double len = stretch_b - stretch_a;
    f.longest_starved_s = std::max(f.longest_starved_s, len);
    if (len > threshold) {
      ++f.collapses;
      f.collapse_s += len;
    }
    stretch_a = stretch_b = kNaN;
  };
  for (size_t i = 0; i < xs.size(); ++i) {
    const StateSample& x = xs[i];
    const double t0 = sec(x.t_ns);
    const double t1 = i + 1 < xs.size() ? sec(xs[i + 1].t_ns) : end_s;
    if (!x.admissible) {
      admissible_since = kNaN;
      close_stretch();
      continue;
    }
    if (std::isnan(admissible_since)) admissible_since = t0;
    const double a = std::max(t0, admissible_since + grace);
    if (x.idle_devices == 0 || a >= t1) {
      close_stretch();
      continue;
    }
    if (std::isnan(stretch_a) || stretch_b != a) {
      close_stretch();
      stretch_a = a;
    }
    stretch_b = t1;
  }
  close_stretch();
  return f;
}

double gpu_busy_jitter_pp(const Scenario& s, const RunTrace& tr, double from_s, double to_s) {
  const StepIntegral proving(tr.samples, sec(tr.end_ns), [](const StateSample& x) { return x.proving; });
  const double workers = static_cast<double>(s.devices) * s.workers_per_device;
  std::vector<double> busy;
  for (double t = from_s; t + kJitterWindowS <= to_s; t += kJitterWindowS) {
    busy.push_back(proving.over(t, t + kJitterWindowS) / (workers * kJitterWindowS));
  }
  return stddev_pp(busy);
}

std::vector<std::string> check_invariants(const Scenario& s, const Figures& f) {
  std::vector<std::string> broken;
  const std::string who = s.name + " / " + f.pacer + ": ";
  if (f.peak_memory_gib > s.budget_gib) {
    broken.push_back(who + "peak memory " + std::to_string(f.peak_memory_gib) + " GiB is above the budget " +
                     std::to_string(s.budget_gib) + " GiB");
  }
  if (f.completed != f.admitted) {
    broken.push_back(who + std::to_string(f.admitted - f.completed) + " admitted partitions never completed");
  }
  if (f.admitted != f.submitted) {
    broken.push_back(who + std::to_string(f.submitted - f.admitted) + " submitted partitions were never admitted");
  }
  const bool exempt = std::find(s.collapse_exempt.begin(), s.collapse_exempt.end(), f.pacer) != s.collapse_exempt.end();
  if (f.collapses != 0 && !exempt) {
    broken.push_back(who + std::to_string(f.collapses) + " collapses (" + std::to_string(f.collapse_s) +
                     " s with a device idle while admissible work waited)");
  }
  if (f.timed_out) broken.push_back(who + "still running at max_time_s");
  return broken;
}

}  // namespace zkp::pacing_sim
