// The `cuda` prover: Groth16 proofs for snarkjs zkeys on NVIDIA GPUs, byte-identical to the cpu
// prover (and so to snarkjs) for the same witness and (r, s). README.md has the design.
//
// Over the ABI (zkp_prover.h), every call names its device; none uses a process-wide current
// device (each opens a DeviceGuard on the thread it runs on):
//   key_load     parses the zkey on the host (the backend layer's code and checks), uploads the
//                G1 bases of sections 5, 6, 8, 9 to device gpu_index (-1: every device, in
//                parallel) once, and sizes each worker's scratch and pinned staging. The same
//                file loaded again returns a new handle to the same resident copy.
//   synthesize   a = A·w, b = B·w on the host's threads (the backend layer's synthesis).
//   prove_start  checks the input, draws (r, s) (backend), queues the proof on lane `worker` of device
//                gpu_index (-1: the device with the fewest proofs in flight) and returns.
//   prove_wait   waits for the proof's device work, the last reader of its input (zkp_prover_t.prove_wait).
//   prove_finish waits, runs the CPU epilogue, self-verifies (option verify), writes the proof.
//                gpu_duration_ns = the proof's span on the device's clock, from its first
//                device work to the end of its last (CUDA events; DeviceStageTimes::span_ms).
// Thread-safety: every call is [any-thread]; devices never wait on each other.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device_errors.hpp"
#include "device_slot.hpp"
#include "key_state.hpp"
#include "options.hpp"
#include "device_stage_times.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::cuda::prover {

class CudaProver final : public sdk::Prover {
 public:
  static constexpr const char* kName = "cuda";
  // Every option: default, parsing and help in one table (options.cpp).
  static const sdk::OptionTable<ProverOptions>& option_table() { return prover::option_table(); }
  // The kernel library throws CudaError, not sdk::Error: the adapter asks here for its status.
  static void translate_exception(const std::exception& e) { rethrow_cuda_error_as_status(e); }

  // One lane per host worker: facts.workers_per_device lanes on each device.
  CudaProver(const sdk::HostServices& host, const sdk::ProverFacts& facts, sdk::Options& options);
  ~CudaProver() override;

  uint32_t flags() const override { return ZKP_PROVER_FLAG_GPU | ZKP_PROVER_FLAG_VERIFY; }
  uint32_t device_count() const override { return static_cast<uint32_t>(devices_.size()); }
  void device_info(uint32_t gpu_index, zkp_device_info_t& out) const override;
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t& source, int32_t gpu_index) override;
  void key_info(const zkp_key_t& key, zkp_key_info_t& out) const override;
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t& key, const zkp_witness_t& witness) override;
  void synthesize_into(const zkp_key_t& key, const zkp_witness_t& witness, std::span<uint8_t> buffer,
                       zkp_synthesized_t& out);
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                              int32_t gpu_index, uint32_t worker) override;
  void prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) override;
  // zkp_prover_t.prove_wait: until the op's device work has ended (its input's last reader).
  void prove_wait(zkp_prove_op_t& op);
  bool verify(const zkp_key_t& key, std::span<const uint8_t> proof,
              std::span<const uint8_t> public_inputs) const override;

  // prove_finish with the stage split of the proof (for the benchmark; the ABI carries only
  // msm_ns, ntt_ns and epilogue_ns).
  void finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out, DeviceStageTimes* times);

  const ProverOptions& options() const { return options_; }
  // Why device_count() is 0 (the runtime's reason), or empty.
  const std::string& no_device_reason() const { return no_device_reason_; }

 private:
  std::shared_ptr<KeyState> cached_or_read(const zkp_key_source_t& source);
  std::shared_ptr<KeyState> read_key(const zkp_key_source_t& source);
  void load_on(KeyState& key, DeviceSlot& device);
  DeviceSlot& pick_device(const KeyState& key, int32_t gpu_index) const;

  const sdk::HostServices& host_;
  ProverOptions options_;
  std::string no_device_reason_;
  std::unique_ptr<ThreadPool> pool_;     // synthesis, key checks, input checks, the host H step
  std::unique_ptr<ThreadPool> staging_;  // staged_upload's threads, shared by every lane
  std::unique_ptr<ThreadPool> g2_pool_;  // with g2=host: the host G2 MSM's, beside pool_'s H step
  std::unique_ptr<Context> ctx_;
  std::vector<std::unique_ptr<DeviceSlot>> devices_;
  std::mutex cache_mutex_;
  std::map<std::string, std::weak_ptr<KeyState>> cache_;  // file identity → the loaded key
};

}  // namespace zkp::cuda::prover
