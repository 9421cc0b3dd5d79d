// The curve-independent faces of a loaded key and a proof in flight.
//
// KeyState is one loaded proving key: the ABI-facing half (backend::CurveKey: parsed zkey,
// synthesis, input checks, verifying key) and, per device, the resident MSM bases. It is
// shared: every key_load of the same file returns a new KeyRef to the same KeyState, and the
// device copies are freed when the last ref (and the last op using it) is gone.
#pragma once

#include <zkpipe/sdk/host_services.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/backend/curve_key.hpp"
#include "device_slot.hpp"
#include "options.hpp"
#include "device_stage_times.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::cuda::prover {

// What the key's device work needs from the prover.
struct Context {
  const sdk::HostServices& host;
  ThreadPool& pool;  // the host's share of a proof: input checks, the host H step
  const ProverOptions& options;
  std::vector<DeviceSlot*> devices;  // every device of the prover, in gpu_index order
  ThreadPool* staging = nullptr;     // the staging copies of uploads (staging.hpp)
  ThreadPool* g2 = nullptr;          // the host G2 MSM's, with g2=host (ProofStages::run)
};

class KeyState : public std::enable_shared_from_this<KeyState> {
 public:
  virtual ~KeyState() = default;
  // key_info, synthesize and verify: the backend layer's, as every prover's.
  virtual const backend::Key& host_key() const = 0;
  const std::string& name() const { return host_key().name(); }
  // The lane scratch one proof of this key needs with these options.
  virtual LaneNeeds lane_needs(const ProverOptions& options) const = 0;
  // Uploads the bases to `device` unless already there, after checking that they and the
  // lanes' scratch fit (ZKP_ERR_OUT_OF_MEMORY otherwise). Thread-safe; concurrent calls for
  // one device upload once. `pool` does the host-side preparation (a bellperson key's h query
  // permuted for the device H step).
  // What it placed on the device and how long each part took, for the log; "" when the key
  // was resident there already.
  virtual std::string make_resident(DeviceSlot& device, const ProverOptions& options, ThreadPool& pool) = 0;
  virtual bool resident_on(std::uint32_t gpu_index) const = 0;
  // key_info's device_bytes: what the key holds on each device it is on (the bytes make_resident
  // checked), or the estimate for these options before it is on any.
  virtual std::uint64_t device_bytes(const ProverOptions& options) const = 0;
  // Whether the key can still be placed on a device it is not on: false once its host copies
  // were dropped (option host_bases), when a new key_load must read the file again.
  virtual bool can_place() const = 0;
  // After key_load's uploads, with host_bases=drop: frees what the devices now hold.
  virtual void drop_host_bases(const ProverOptions& options) = 0;
  // Checks `input` (backend::CurveKey::take_input), queues the proof's device work on `lane`
  // of `device` and returns at once.
  virtual std::unique_ptr<zkp_prove_op_t> start(DeviceSlot& device, Lane& lane, const zkp_prove_input_t& input,
                                                const Context& ctx) = 0;
};

// The zkp_key_t the ABI hands out: one reference to a shared KeyState.
struct KeyRef final : zkp_key_t {
  explicit KeyRef(std::shared_ptr<KeyState> s) : state(std::move(s)) {}
  std::shared_ptr<KeyState> state;
};

class OpBase : public zkp_prove_op_t {
 public:
  explicit OpBase(DeviceSlot& device) : device_(device) {}
  DeviceSlot& device() const { return device_; }
  // Waits for the device work, runs the epilogue (and the self-check), writes `out`. Throws
  // sdk::Error; `times`, if given, receives the stage split.
  virtual void finish(zkp_prove_output_t& out, DeviceStageTimes* times) = 0;
  // Waits for the device work, the last reader of the op's input (zkp_prover_t.prove_wait);
  // throws the lane's error, which finish() throws again.
  virtual void wait_input_read() = 0;

 private:
  DeviceSlot& device_;
};

}  // namespace zkp::cuda::prover
