// DeviceSlot: what the prover knows about one of its devices — the CUDA ordinal behind its
// gpu_index, the per-device counters device_info reports, the lanes (workers), and whether a
// fault has made the device unusable. Each device is independent: nothing here is shared
// between devices, and no lock spans two of them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lane.hpp"

namespace zkp::cuda::prover {

class DeviceSlot {
 public:
  DeviceSlot(std::uint32_t index, int ordinal, std::string name, std::uint64_t memory_bytes, unsigned workers)
      : index_(index), ordinal_(ordinal), name_(std::move(name)), memory_bytes_(memory_bytes) {
    for (unsigned w = 0; w < workers; ++w) {
      lanes_.push_back(std::make_unique<Lane>(ordinal, w, label() + " worker " + std::to_string(w)));
    }
  }

  std::uint32_t index() const { return index_; }
  int ordinal() const { return ordinal_; }
  const std::string& name() const { return name_; }
  std::uint64_t memory_bytes() const { return memory_bytes_; }
  // "device 1 (NVIDIA H200, CUDA ordinal 3)": how every message names the device.
  std::string label() const {
    return "device " + std::to_string(index_) + " (" + name_ + ", CUDA ordinal " + std::to_string(ordinal_) + ")";
  }

  // The lane of host worker `worker`: workers beyond the lane count share lanes round-robin.
  Lane& lane(std::uint32_t worker) { return *lanes_[worker % lanes_.size()]; }
  const std::vector<std::unique_ptr<Lane>>& lanes() const { return lanes_; }

  // A fault that leaves the CUDA context unusable (an illegal address, a lost device) marks the
  // device lost: later proofs on it fail at once with ZKP_ERR_DEVICE; other devices go on.
  void mark_lost(const std::string& why) {
    std::lock_guard lk(lost_mutex_);
    if (!lost_) lost_why_ = why;
    lost_ = true;
  }
  bool lost(std::string* why = nullptr) const {
    std::lock_guard lk(lost_mutex_);
    if (why != nullptr) *why = lost_why_;
    return lost_;
  }

  std::atomic<std::uint64_t> started{0}, proved{0}, busy_ns{0};
  std::atomic<std::uint32_t> in_flight{0};  // queued or running on a lane: the "busy" of gpu_index -1

 private:
  const std::uint32_t index_;
  const int ordinal_;
  const std::string name_;
  const std::uint64_t memory_bytes_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  mutable std::mutex lost_mutex_;
  bool lost_ = false;
  std::string lost_why_;
};

}  // namespace zkp::cuda::prover
