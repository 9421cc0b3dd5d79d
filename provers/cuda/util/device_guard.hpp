// DeviceGuard: makes gpu_index the calling thread's current device for one scope.
//
// The CUDA runtime keeps a current device per host thread, and a thread pool may run a
// job for GPU 1 on a thread that last worked for GPU 0. Every entry point that touches a
// device therefore opens a DeviceGuard for its own gpu_index instead of trusting whatever
// device the thread (or the process) happens to have selected. The previous device is
// restored on exit so callers that do manage the current device are not disturbed.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "cuda/util/error.hpp"

namespace zkp::cuda {

class DeviceGuard {
 public:
  explicit DeviceGuard(int gpu_index) {
    ZKP_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != gpu_index) ZKP_CUDA_CHECK(cudaSetDevice(gpu_index));
    current_ = gpu_index;
  }
  ~DeviceGuard() {
    if (previous_ != current_) cudaSetDevice(previous_);  // best effort: a destructor must not throw
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
  int current_ = 0;
};

// Frees the pimpl `owner` (any object with an int `gpu`: the device its buffers live on) with
// that device selected, and leaves `owner` empty. Never throws: if the device cannot be
// selected (it was lost), the buffers are freed from whatever device is current rather than
// leaked. For destructors and move assignments of device-owning pimpl classes.
template <class Impl>
void reset_on_device(std::unique_ptr<Impl>& owner) noexcept {
  if (!owner) return;
  try {
    DeviceGuard guard(owner->gpu);
    owner.reset();
  } catch (...) {
  }
  owner.reset();
}

// Number of CUDA devices; 0 when the runtime finds none. `error` receives the runtime's
// reason when it fails (no driver, no device), for skip messages and logs.
inline int device_count(cudaError_t* error = nullptr) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (error != nullptr) *error = e;
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear it so later calls do not report it again
    return 0;
  }
  return n;
}

}  // namespace zkp::cuda
