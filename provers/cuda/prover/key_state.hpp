// The curve-independent faces of a loaded key and a proof in flight.
//
// KeyState is one loaded proving key: the host half (the cpu prover's CurveKey: parsed zkey,
// synthesis, input checks, verifying key) and, per device, the resident MSM bases. It is
// shared: every key_load of the same file returns a new KeyHandle to the same KeyState, and
// the device copies are freed when the last handle (and the last op using it) is gone.
#pragma once

#include <zkpipe/sdk/host_services.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpu/cpu_key.hpp"
#include "device_slot.hpp"
#include "options.hpp"
#include "stage_times.hpp"

namespace zkp::cuda::prover {

// What the key's device work needs from the prover.
struct Context {
  const sdk::HostServices& host;
  cpu::CpuProver::Shared& cpu;  // the host thread pool (synthesis, host H) and key checks
  const ProverOptions& options;
  std::vector<DeviceSlot*> devices;  // every device of the prover, in gpu_index order
  ThreadPool* staging = nullptr;     // the staging copies of uploads (staging.hpp)
};

class KeyState : public std::enable_shared_from_this<KeyState> {
 public:
  virtual ~KeyState() = default;
  virtual const cpu::KeyBase& cpu_key() const = 0;
  virtual const std::string& name() const = 0;
  // The lane scratch one proof of this key needs with these options.
  virtual LaneNeeds lane_needs(const ProverOptions& options) const = 0;
  // Estimated device bytes of the resident bases (all sections, this configuration).
  virtual std::uint64_t resident_bytes_estimate(const ProverOptions& options) const = 0;
  // Uploads the bases to `device` unless already there. Thread-safe; concurrent calls for one
  // device upload once.
  virtual void make_resident(DeviceSlot& device, const ProverOptions& options) = 0;
  virtual bool resident_on(std::uint32_t gpu_index) const = 0;
  // Queues the device work of a proof whose inputs the cpu key has checked (cpu_op, from
  // cpu_key().prove_start) on `lane` of `device`, and returns at once.
  virtual std::unique_ptr<zkp_prove_op_t> start(DeviceSlot& device, Lane& lane, std::unique_ptr<zkp_prove_op_t> cpu_op,
                                                const Context& ctx) = 0;
};

struct KeyHandle final : zkp_key_t {
  explicit KeyHandle(std::shared_ptr<KeyState> s) : state(std::move(s)) {}
  std::shared_ptr<KeyState> state;
};

class OpBase : public zkp_prove_op_t {
 public:
  explicit OpBase(DeviceSlot& device) : device_(device) {}
  DeviceSlot& device() const { return device_; }
  // Waits for the device work, runs the epilogue (and the self-check), writes `out`. Throws
  // sdk::Error; `times`, if given, receives the stage split.
  virtual void finish(zkp_prove_output_t& out, StageTimes* times) = 0;

 private:
  DeviceSlot& device_;
};

}  // namespace zkp::cuda::prover
