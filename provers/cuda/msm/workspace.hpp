// MsmWorkspace: the per-call scratch of device MSMs (the digit pairs and their sort buffers,
// CUB's sort scratch, the buckets) and the one stream they run on, shared by any number of
// cuda::Msm objects on one device.
//
//   auto ws = std::make_shared<cuda::MsmWorkspace>(gpu);
//   cuda::Msm<G1> a(gpu, a_bases, config, ws), h(gpu, h_bases, config, ws);  // one scratch
//
// Why: the scratch of an MSM over N bases is about 16·N·W bytes (W windows: 15 at N = 2^27),
// more than its bases; a Groth16 proof has four G1 sections of up to 2^27 bases each, so
// per-section scratch alone would take ~100 GB at Filecoin's size. MSMs on one workspace run
// one after another (one stream), so one scratch sized for the largest serves them all: the
// device memory of the sections comes down from the sum of their scratch to the largest. The
// price is that they no longer run concurrently, which at these sizes costs little: each
// already fills the device.
//
// The scratch only grows, at reserve(), which the Msm constructor calls: reserve only while no
// MSM on the workspace is in flight (it synchronizes the stream and reallocates). Each Msm
// resolves its buffers from data() at every call, so a later, larger sibling is safe. Launches
// are queued under launch_mutex(): MSMs of one workspace may be called from several threads.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <mutex>

#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"

namespace zkp::cuda {

class MsmWorkspace {
 public:
  // Creates the stream on device gpu_index; no scratch until reserve().
  explicit MsmWorkspace(int gpu_index) : gpu_(gpu_index), stream_(make_stream(gpu_index)) {}
  MsmWorkspace(const MsmWorkspace&) = delete;
  MsmWorkspace& operator=(const MsmWorkspace&) = delete;
  ~MsmWorkspace() {
    try {
      DeviceGuard guard(gpu_);
      scratch_ = {};
    } catch (...) {  // a lost device: the scratch goes from whatever device is current
    }
  }

  int gpu_index() const noexcept { return gpu_; }
  cudaStream_t stream() const noexcept { return stream_.get(); }
  std::uint8_t* data() const noexcept { return scratch_.data(); }
  std::size_t capacity() const noexcept { return scratch_.bytes(); }
  // Held while one MSM queues its launches, so that two threads' sequences never interleave
  // on the stream (they share the scratch).
  std::mutex& launch_mutex() noexcept { return launch_; }

  // Grows the scratch to at least `bytes`; the stream is synchronized first, so nothing queued
  // before still reads the old buffer.
  void reserve(std::size_t bytes) {
    if (bytes <= scratch_.bytes()) return;
    DeviceGuard guard(gpu_);
    stream_.synchronize();
    scratch_ = {};  // free first: the old and the new need not fit together
    scratch_ = DeviceBuffer<std::uint8_t>(bytes);
  }

 private:
  static Stream make_stream(int gpu_index) {
    DeviceGuard guard(gpu_index);
    return Stream();
  }

  int gpu_;
  std::mutex launch_;
  Stream stream_;
  DeviceBuffer<std::uint8_t> scratch_;
};

}  // namespace zkp::cuda
