#include "device_fault.hpp"

#include <cuda_runtime_api.h>
#include <zkpipe/sdk/error.hpp>

#include <new>
#include <stdexcept>
#include <string>

#include "cuda/util/device_guard.hpp"
#include "device_errors.hpp"

namespace zkp::cuda::prover {
namespace {

// Whether a device's context is unusable after an error: sticky errors come back from every
// later call. `wait`: synchronise the device (the one that failed: its own queued work must
// surface); else a non-blocking probe (creating an event), for devices that may be busy with
// healthy work.
bool context_broken(const DeviceSlot& device, bool wait) noexcept {
  try {
    DeviceGuard guard(device.ordinal());
    cudaGetLastError();
    if (wait) return cudaDeviceSynchronize() != cudaSuccess;
    cudaEvent_t probe = nullptr;
    if (cudaEventCreateWithFlags(&probe, cudaEventDisableTiming) != cudaSuccess) return true;
    cudaEventDestroy(probe);
    return false;
  } catch (...) {
    return true;  // the device cannot even be selected
  }
}

// Marks `device` lost and every other device the same fault reached; returns what the
// message adds about them.
std::string mark_lost(DeviceSlot& device, const std::string& what, const CudaError& err,
                      const std::vector<DeviceSlot*>& devices) {
  device.mark_lost(what);
  std::string others;
  for (DeviceSlot* d : devices) {
    if (d == &device || d->lost() || !context_broken(*d, false)) continue;
    d->mark_lost("the CUDA runtime reports the fault of " + device.label() + " here too: " + err.what());
    others += (others.empty() ? "" : ", ") + std::to_string(d->index());
  }
  return others.empty() ? "; the device is unusable in this process from now on"
                        : "; the fault broke the CUDA runtime of this process: devices " +
                              std::to_string(device.index()) + ", " + others + " are unusable until the process restarts";
}

}  // namespace

std::exception_ptr classify_failure(std::exception_ptr e, DeviceSlot& device, const Lane& lane, const char* stage,
                                    const std::vector<DeviceSlot*>& devices) noexcept {
  try {
    const std::string where = lane.name() + ", " + stage + ": ";
    try {
      std::rethrow_exception(e);
    } catch (const CudaError& err) {
      std::string what = where + err.what();
      if (!err.out_of_memory() && context_broken(device, true)) {
        what += mark_lost(device, what, err, devices);
        // Sticky: the context is broken for good, so the host must not expect this process to
        // prove on the device again (with isolation = process its device process exits on it).
        throw sdk::Error(ZKP_ERR_DEVICE_LOST, what);
      }
      throw sdk::Error(status_of(err), what);
    } catch (const sdk::Error& err) {
      throw sdk::Error(err.status(), where + err.what());
    } catch (const std::bad_alloc&) {
      throw sdk::Error(ZKP_ERR_OUT_OF_MEMORY, where + "out of host memory");
    } catch (const std::exception& err) {
      throw sdk::Error(ZKP_ERR_INTERNAL, where + err.what());
    }
  } catch (...) {
    return std::current_exception();
  }
}

}  // namespace zkp::cuda::prover
