// A pacing scenario: the machine, the partitions and the arrival pattern the simulator
// runs every pacer against. Scenarios are data files of `key = value` lines ('#' starts a
// comment); scenarios/README.md lists every key. Unknown keys, duplicates and malformed
// values are errors that name the file and line.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace zkp::pacing_sim {

inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kNsPerS = 1e9;
inline constexpr double kNsPerMs = 1e6;
inline constexpr double kMsPerS = 1e3;

// A kind of partition: its memory reservation, GPU time and synthesis time.
struct PartitionClass {
  std::string name;
  double gib = 9.0;
  double gpu_alone_ms = 1000.0;  // on a device where no other worker is busy
  double gpu_busy_ms = 1200.0;   // while another worker on the same device is busy
  double synthesis_min_s = 20.0; // synthesis time is uniform in [min, max]
  double synthesis_max_s = 60.0;
  double weight = 1.0;           // share of jobs, when an arrival phase names no class
};

// One phase of the arrival pattern; phases run one after another.
struct ArrivalPhase {
  enum class Kind { kBursts, kPause, kPoisson };
  Kind kind = Kind::kBursts;
  uint32_t jobs = 1;        // kBursts: jobs per burst; kPoisson: jobs in the phase
  uint32_t partitions = 10; // per job
  uint32_t repeat = 1;      // kBursts: bursts in the phase
  double every_s = 0.0;     // kBursts: time from one burst to the next (and after the last)
  double seconds = 0.0;     // kPause: length
  double mean_gap_s = 1.0;  // kPoisson: mean time between jobs
  std::string class_name;   // empty: each job draws a class by weight
};

// GPU time x factor on one device (or all) during [start_s, end_s).
struct Slowdown {
  double start_s = 0.0;
  double end_s = 0.0;
  double factor = 1.0;
  int32_t device = -1;  // -1: every device
};

// One GPU of the machine: its speed (GPU times are divided by it: 2 is a device twice as
// fast as the classes' figures, 0.5 an older card at half speed) and the time it stops
// taking work (the work on it finishes; nothing new starts there; the pacer is not told).
struct DeviceSpec {
  double speed = 1.0;
  double lost_at_s = std::numeric_limits<double>::infinity();
};

struct PacerOptions {
  std::string pacer;
  std::vector<std::pair<std::string, std::string>> options;
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source;  // the file it was read from
  uint64_t seed = 1;

  uint32_t devices = 1;
  uint32_t workers_per_device = 2;
  // 0: synthesis concurrency is limited by the memory budget alone (PACING.md: synthesis
  // is parallel and memory-bound).
  uint32_t synthesis_threads = 0;
  double budget_gib = 400.0;
  std::vector<DeviceSpec> device_specs;  // one per device (`device.N.*`; default speed 1, never lost)

  // A partition whose pinned buffers were allocated less than the window after another's
  // gets GPU time x factor (PACING.md failure 5). Buffers return to a pool at GPU done
  // and are reused; `pinned_prewarm` buffers per class are allocated before the run.
  double pinned_stall_factor = 1.0;
  double pinned_stall_window_ms = 1000.0;
  uint32_t pinned_prewarm = 0;

  std::vector<PartitionClass> classes;
  std::vector<ArrivalPhase> arrivals;
  std::vector<Slowdown> slowdowns;
  std::vector<std::string> pacers;      // run by default, in this order
  // Pacers whose collapses are reported but are not an invariant violation: open-loop
  // pacers (fixed) cannot react to the GPU starving; a collapse is a closed loop's failure.
  std::vector<std::string> collapse_exempt;
  std::vector<PacerOptions> pacer_options;

  // Figures: steady state starts this long after a busy period starts (default: twice
  // the longest synthesis); a collapse is a device idle while admissible work exists for
  // longer than this many GPU times; recovery is the first window of this length whose
  // throughput reaches this fraction of capacity.
  double steady_warmup_s = 0.0;
  double collapse_gpu_intervals = 5.0;
  double recovery_window_s = 60.0;
  double recovery_fraction = 0.9;
  // The run stops with an error at this virtual time (a pacer that never finishes).
  double max_time_s = 7.0 * 24 * 3600;

  const PartitionClass& class_named(const std::string& name) const;
  double longest_synthesis_s() const;
  const std::vector<std::pair<std::string, std::string>>& options_for(const std::string& pacer) const;
};

// Reads a scenario file; throws std::runtime_error("FILE:LINE: what") on any error.
Scenario load_scenario(const std::string& path);
// Parses scenario text; `source` names it in errors.
Scenario parse_scenario(const std::string& text, const std::string& source);

}  // namespace zkp::pacing_sim
