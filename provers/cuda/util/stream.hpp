// RAII owners of a CUDA stream and a CUDA event, created on the caller's current device
// (open a DeviceGuard first). Move-only; destruction does not throw.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "cuda/util/error.hpp"

namespace zkp::cuda {

// A non-blocking stream: it does not synchronise with the legacy default stream, so work
// queued by other libraries on stream 0 never serialises ours.
class Stream {
 public:
  Stream() { ZKP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    std::swap(stream_, o.stream_);
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  void synchronize() const { ZKP_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  // Timing events by default; pass cudaEventDisableTiming for pure ordering.
  explicit Event(unsigned flags = cudaEventDefault) { ZKP_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags)); }
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const noexcept { return event_; }
  void record(cudaStream_t s) const { ZKP_CUDA_CHECK(cudaEventRecord(event_, s)); }
  void synchronize() const { ZKP_CUDA_CHECK(cudaEventSynchronize(event_)); }
  // Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const {
    float ms = 0;
    ZKP_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace zkp::cuda
