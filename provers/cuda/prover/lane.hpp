// Lane: one worker of one device — a host thread, a CUDA stream, timing events, and the scratch
// of one proof in flight (pinned host staging, device buffers for the MSM scalars).
//
// Why a thread per lane rather than stream callbacks: a proof is not one stream of kernels.
// cuda::Msm::run_device blocks until its result is back (the final Horner step runs on the
// host), the host H step and the host G2 MSM are CPU work, and a stream callback may not call
// the CUDA API. So prove_start hands the proof to its lane's thread and returns; the thread
// drives the stages and fulfils a promise that prove_finish waits on.
//
// Scratch is sized at key_load (reserve), never on the hot path: it only grows, to the largest
// key loaded, and lives as long as the prover. The pinned staging is allocated and touched
// (warmed) there too, so no proof ever calls cudaHostAlloc or faults in pinned pages.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "cuda/util/buffers.hpp"
#include "cuda/util/stream.hpp"

namespace zkp::cuda::prover {

// What one proof of a key needs from a lane, in bytes: regions both pinned and on the device
// (uploads), and two on the device only (gathered there).
struct LaneNeeds {
  std::size_t witness_bytes = 0;  // n_vars scalars: the A, B1, B2, C MSM scalars
  std::size_t h_bytes = 0;        // domain scalars: the H MSM scalars (with h=device: a, then H)
  std::size_t b_bytes = 0;        // with h=device: b and c on the domain (0 with h=host)
  std::size_t c_bytes = 0;
  std::size_t density_bytes = 0;   // a bellperson key: its three density bitmaps, and on the
                                   // device the gather's scratch behind them (else 0)
  std::size_t a_scalar_bytes = 0;  // a bellperson key, device only: the a query's scalars, gathered
  std::size_t b_scalar_bytes = 0;  // and the b queries'
  std::size_t pinned_total() const { return witness_bytes + h_bytes + b_bytes + c_bytes + density_bytes; }
  std::size_t total() const { return pinned_total() + a_scalar_bytes + b_scalar_bytes; }  // device bytes
};

class Lane {
 public:
  // The scratch a job works in; valid while the job holds the lane (see run()).
  struct Scratch {
    Stream* stream = nullptr;
    Event *start = nullptr, *witness_ready = nullptr, *h_start = nullptr, *h_uploaded = nullptr, *h_ready = nullptr,
          *end = nullptr;
    std::uint8_t *pinned_witness = nullptr, *pinned_h = nullptr, *pinned_b = nullptr, *pinned_c = nullptr,
                 *pinned_density = nullptr;
    std::uint8_t *device_witness = nullptr, *device_h = nullptr, *device_b = nullptr, *device_c = nullptr,
                 *device_density = nullptr, *device_a_scalars = nullptr, *device_b_scalars = nullptr;
    std::size_t density_bytes = 0;  // of the two density regions (the reserved size)
  };

  // Starts the lane's thread (no CUDA work until reserve()). `index` is the lane's place on its
  // device; `name` is for messages: "device 1 (NVIDIA H200, CUDA ordinal 1) worker 0".
  Lane(int ordinal, unsigned index, std::string name);
  ~Lane();  // joins the thread; no job may be queued (every op was finished)
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  // Grows the scratch to hold `needs` (creates the stream and events the first time). Waits for
  // the job in progress, if any. `pinned_cap` (0 = none) bounds this lane's pinned bytes: more
  // is an ZKP_ERR_OUT_OF_MEMORY naming the option. Throws CudaError (OOM names the bytes).
  void reserve(const LaneNeeds& needs, std::size_t pinned_cap);
  // Only the pinned staging of reserve(): host work (pages touched and locked: ~0.2 s for a
  // 2^24 key's staging), so key_load runs it beside the key's upload.
  void reserve_pinned(const LaneNeeds& needs, std::size_t pinned_cap);

  // Queues `job` on the lane's thread; it runs with the device selected and the scratch held.
  // The job must not throw (it reports through its own promise).
  void post(std::function<void(const Scratch&)> job);

  const std::string& name() const { return name_; }
  unsigned index() const { return index_; }
  std::size_t pinned_bytes() const;

 private:
  void loop();

  const int ordinal_;
  const unsigned index_;
  const std::string name_;

  mutable std::mutex scratch_mutex_;  // held by reserve() and by the running job
  std::optional<Stream> stream_;
  std::optional<Event> start_, witness_ready_, h_start_, h_uploaded_, h_ready_, end_;
  PinnedBuffer<std::uint8_t> pinned_;  // the regions of LaneNeeds, back to back
  DeviceBuffer<std::uint8_t> device_witness_, device_h_, device_b_, device_c_, device_density_, device_a_scalars_,
      device_b_scalars_;
  LaneNeeds reserved_;
  LaneNeeds grown(const LaneNeeds& needs) const;  // reserved_ grown to hold needs (scratch_mutex_ held)
  void grow_pinned(const LaneNeeds& grown, std::size_t pinned_cap);  // scratch_mutex_ held

  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<std::function<void(const Scratch&)>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace zkp::cuda::prover
