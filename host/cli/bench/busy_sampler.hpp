// GPU busy over time: a thread that reads every device's cumulative busy time
// (zkp_device_info_t busy_ns, through a reader the runner supplies) every `interval`, and the
// busy share per device and interval reconstructed from those readings.
//
// busy_ns is the sum of the gpu_duration of the proofs a device has finished, so it grows by a
// whole proof at the proof's end: busy time gained / time elapsed per interval would read as
// idle, idle, 6x busy for a 650 ms proof sampled every 100 ms. busy_shares() instead places
// each increment in the time just before the reading that saw it: the intervals from that
// reading back, each filled up to one device-second per second, then a second layer on top (a
// second worker overlapping), never further back than the increment's own length before the
// previous reading (a proof of length d that ended there began at most d earlier). That is
// exact for one worker per device proving back to back, up to one interval.
#pragma once

#include "bench/stats.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace zkp::cli::bench {

// The interval issue 15 asks for: fine enough to see a device idle between proofs of ~1 s.
inline constexpr std::chrono::milliseconds kBusySampleInterval{100};

struct BusyReading {
  double t_s = 0;                // since the bench started
  std::vector<uint64_t> busy_ns;  // cumulative, per device
};

// One sample per interval between consecutive readings (readings in time order; a reading with
// fewer devices than another counts the missing ones as 0): its end time, its share per
// device as described above, and the cumulative busy_ns of the reading that ends it.
std::vector<BusySample> busy_shares(const std::vector<BusyReading>& readings);

class BusySampler {
 public:
  using Clock = std::chrono::steady_clock;
  // The time of each reading: Clock::now, or a test's hand-run clock.
  using Now = std::function<Clock::time_point()>;
  // busy_ns per device, cumulative; called on the sampler's thread (and once in the
  // constructor and in stop(), on the caller's).
  using Reader = std::function<std::vector<uint64_t>()>;
  // What takes the readings between the first and the last: a thread of the sampler's own,
  // every `interval` (the bench), or the caller, through sample() (a test, which then decides
  // how many readings there are and, with its own Now, when each is taken: nothing depends on
  // the scheduler or the wall clock).
  enum class Drive { thread, caller };

  // Takes a first reading now and starts the thread. `origin` is the time 0 of the samples (the
  // bench's start, so the samples of every point share one axis).
  BusySampler(Reader reader, Clock::time_point origin, std::chrono::nanoseconds interval = kBusySampleInterval)
      : BusySampler(std::move(reader), origin, interval, &Clock::now, Drive::thread) {}
  // The same with the clock and the drive given: Drive::caller starts no thread.
  BusySampler(Reader reader, Clock::time_point origin, std::chrono::nanoseconds interval, Now now, Drive drive);
  ~BusySampler();  // stop()
  BusySampler(const BusySampler&) = delete;
  BusySampler& operator=(const BusySampler&) = delete;

  // Takes a reading now (Drive::caller's readings; with Drive::thread, one more between the
  // thread's). Nothing once stop() was called or the reader threw.
  void sample();

  // Takes a last reading, ends the thread and returns busy_shares() of the readings. The last
  // reading replaces the one before it when it comes less than half an interval later (a few
  // milliseconds are too short an interval to show). A reader that throws ends the readings
  // there; those taken are kept. Once only: a second call returns nothing.
  std::vector<BusySample> stop();

 private:
  void read();
  void loop();

  Reader reader_;
  Clock::time_point origin_;
  std::chrono::nanoseconds interval_;
  Now now_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool failed_ = false;
  std::vector<BusyReading> readings_;
  std::thread thread_;  // last: started once the fields above are ready (Drive::thread only)
};

}  // namespace zkp::cli::bench
