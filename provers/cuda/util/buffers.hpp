// RAII device and pinned-host arrays of trivially copyable T, on the caller's current
// device (open a DeviceGuard first). Move-only; the destructor frees and never throws.
//
// DeviceBuffer uses plain cudaMalloc (not stream-ordered or managed memory): the MSM's
// buffers live as long as the resident bases, and the device machine's notes advise
// against managed memory. Copies are asynchronous on the given stream; the host side of
// an asynchronous copy must be pinned (PinnedBuffer) or the copy degrades to synchronous.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "cuda/util/error.hpp"
#include "cuda/util/pinned_memory.hpp"

namespace zkp::cuda {

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) : size_(n) {
    if (n != 0) ZKP_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }

  // Host → device into [offset, offset + src.size()).
  void upload(std::span<const T> src, cudaStream_t s, std::size_t offset = 0) {
    check_range(offset, src.size());
    ZKP_CUDA_CHECK(cudaMemcpyAsync(data_ + offset, src.data(), src.size_bytes(), cudaMemcpyHostToDevice, s));
  }
  // Device [offset, offset + dst.size()) → host.
  void download(std::span<T> dst, cudaStream_t s, std::size_t offset = 0) const {
    check_range(offset, dst.size());
    ZKP_CUDA_CHECK(cudaMemcpyAsync(dst.data(), data_ + offset, dst.size_bytes(), cudaMemcpyDeviceToHost, s));
  }
  void fill_zero(cudaStream_t s) {
    if (size_ != 0) ZKP_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), s));
  }

 private:
  void check_range(std::size_t offset, std::size_t n) const {
    if (offset > size_ || n > size_ - offset) throw std::out_of_range("DeviceBuffer: copy outside the buffer");
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Page-locked host memory: the source or target of asynchronous copies, from
// pin_host_memory (pinned_memory.hpp: mapped, touched on several threads, registered; 6.6×
// faster to get than cudaMallocHost's page-by-page locking, copied at the same speed).
template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t n) : size_(n) {
    if (n != 0) data_ = static_cast<T*>(pin_host_memory(n * sizeof(T)));
  }
  ~PinnedBuffer() { unpin_host_memory(data_, size_ * sizeof(T)); }
  PinnedBuffer(PinnedBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::span<T> span() const noexcept { return {data_, size_}; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace zkp::cuda
