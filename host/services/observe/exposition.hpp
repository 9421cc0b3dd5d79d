// A writer of the Prometheus text exposition format (version 0.0.4): families of samples,
// each family once with its # HELP and # TYPE lines, label values escaped. And Histogram,
// a fixed-bucket histogram of durations the service fills from completion records.
//
// Written here rather than taken from prometheus-cpp: Debian 12 has no package of it, and
// what /metrics needs is a page of text.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace zkp::observe {

using Labels = std::vector<std::pair<std::string, std::string>>;

class Histogram {
 public:
  // Upper bounds in seconds, from 1 ms to 10 minutes: a partition's stages on the cpu
  // prover take milliseconds, a 2^27 partition on a GPU seconds.
  static constexpr std::array<double, 16> kBounds = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                      0.5,   1.0,    2.5,   5.0,  10.0,  30.0, 120.0, 600.0};
  void observe_ns(uint64_t ns);
  uint64_t count() const { return count_; }
  double sum_seconds() const { return sum_seconds_; }
  // Observations <= kBounds[i] (not cumulative).
  const std::array<uint64_t, kBounds.size()>& buckets() const { return buckets_; }

 private:
  std::array<uint64_t, kBounds.size()> buckets_{};
  uint64_t count_ = 0;
  double sum_seconds_ = 0;
};

class Exposition {
 public:
  enum class Type { counter, gauge, histogram };
  // Starts a family; its samples follow. `name` must be a valid metric name (a constant here).
  void family(const std::string& name, Type type, const std::string& help);
  void sample(const std::string& name, const Labels& labels, double value);
  void sample(const std::string& name, double value) { sample(name, {}, value); }
  // The _bucket (cumulative, le="+Inf" last), _sum and _count samples of the current family.
  void histogram(const std::string& name, const Labels& labels, const Histogram& h);

  const std::string& text() const { return out_; }

 private:
  std::string out_;
};

// The label-value escaping of the format: backslash, double quote and newline.
std::string escape_label_value(const std::string& value);

}  // namespace zkp::observe
