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

#include "device_slot.hpp"
#include "key_state.hpp"
#include "options.hpp"
#include "device_stage_times.hpp"
#include "util/thread_pool.hpp"

namespace zkp::cuda::prover {

class CudaProver final : public sdk::Prover {
 public:
  static constexpr const char* kName = "cuda";
  static constexpr const char* kOptionsHelp =
      "devices=all            CUDA devices to use, in gpu_index order: all, or a list of ordinals (0,2)\n"
      "workers=2              lanes per device: each a host thread, a stream and the scratch of one\n"
      "                       proof (host workers beyond this share lanes round-robin)\n"
      "pinned_pool_bytes=0    pinned host staging for all lanes together, allocated at key_load;\n"
      "                       0 = exactly what the largest key loaded needs per lane\n"
      "device_memory_bytes=0  device memory the prover may use on each device (resident keys and\n"
      "                       worker scratch, by its estimate); 0 = all the device has. A key that\n"
      "                       does not fit fails key_load with ZKP_ERR_OUT_OF_MEMORY\n"
      "verify=true            verify every proof with the pairing before returning it; a proof that\n"
      "                       fails means the witness does not satisfy the circuit\n"
      "                       (ZKP_ERR_UNSATISFIED_WITNESS)\n"
      "msm_precompute=all     precomputed base copies per G1 section: all (one bucket group, fastest;\n"
      "                       W = 12..22 copies of the bases on the device) or F >= 1 (1 = bases only)\n"
      "msm_window_bits=0      device MSM window bits c (2..24); 0 = the cost model's choice\n"
      "msm_order=concurrent   how a proof's section MSMs (A, B1, B2, C) share the device: concurrent\n"
      "                       (all queued at once) or sequential (each collected before the next)\n"
      "g2=device              where the G2 MSM (B2) runs: host (CPU cores, overlapped with the\n"
      "                       device's G1 work) or device (cuda::Msm<G2>, resident G2 bases)\n"
      "h=device               where the H step (3 odd-coset transforms) runs: host (CPU cores,\n"
      "                       overlapped with the device MSMs) or device (cuda::HStep, per worker)\n"
      "host_threads=0         threads for synthesis, the host H step and the host G2 MSM; 0 = all\n"
      "key_check=on_curve     zkey point checks at key_load: none, on_curve or subgroup\n"
      "r1cs=                  path of the circuit's .r1cs: every witness is checked in synthesize\n";

  CudaProver(const sdk::HostServices& host, sdk::Options& options);
  ~CudaProver() override;

  uint32_t flags() const override { return ZKP_PROVER_FLAG_GPU | ZKP_PROVER_FLAG_VERIFY; }
  uint32_t device_count() const override { return static_cast<uint32_t>(devices_.size()); }
  void device_info(uint32_t gpu_index, zkp_device_info_t& out) const override;
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t& source, int32_t gpu_index) override;
  void key_info(const zkp_key_t& key, zkp_key_info_t& out) const override;
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t& key, const zkp_witness_t& witness) override;
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                              int32_t gpu_index, uint32_t worker) override;
  void prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) override;
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
  std::unique_ptr<Context> ctx_;
  std::vector<std::unique_ptr<DeviceSlot>> devices_;
  std::mutex cache_mutex_;
  std::map<std::string, std::weak_ptr<KeyState>> cache_;  // file identity → the loaded key
};

}  // namespace zkp::cuda::prover
