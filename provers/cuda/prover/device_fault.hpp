// What a failed proof means for its device. A CUDA error that leaves the context broken
// (sticky: an illegal address, a launch failure) marks the device lost, and every other device
// whose context it broke too: the CUDA runtime may take the whole process down with one
// device's fault (H200, CUDA 13: it does; docs/PERF.md), and then only a new process can use
// any device again. Non-template: one copy for both curves.
#pragma once

#include <exception>
#include <vector>

#include "device_slot.hpp"

namespace zkp::cuda::prover {

// The exception of a failed proof job on `lane` of `device` during `stage` ("msm A"), as an
// sdk::Error naming the device, worker and stage, after marking the devices it broke as lost.
// `devices`: every device of the prover. Never throws.
std::exception_ptr classify_failure(std::exception_ptr e, DeviceSlot& device, const Lane& lane, const char* stage,
                                    const std::vector<DeviceSlot*>& devices) noexcept;

}  // namespace zkp::cuda::prover
