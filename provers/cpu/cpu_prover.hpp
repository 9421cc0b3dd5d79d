// The `cpu` prover: Groth16 proofs for snarkjs zkeys on the host's cores, byte-identical to
// `snarkjs groth16 prove` for the same witness and (r, s). One "device": the CPU.
//
// Over the ABI (zkp_prover.h), with the checks of the shared backend layer
// (provers/core/backend/curve_key.hpp):
//   key_load     backend::load_key: the .zkey (or the caller's buffer, borrowed until
//                key_free), its point checks (option key_check), the circuit (option r1cs).
//   synthesize   backend: witness checks, the r1cs check if configured, a = A·w, b = B·w.
//                Holds exactly key_info.synthesis_bytes.
//   prove_start  backend::take_input: the checked input and (r, s).
//   prove_finish does the proving work on the calling thread (H, the five MSMs, the epilogue),
//                then, with option verify (default on), checks the proof with the pairing and
//                fails with ZKP_ERR_UNSATISFIED_WITNESS instead of returning a bad proof.
//                gpu_duration_ns is the wall time of all of that.
// Doing the work in prove_finish rather than on a thread started by prove_start is deliberate:
// on a CPU the "device" is the same cores, so overlapping two proofs gains nothing and would
// double the working memory.
//
// Thread-safety: every call may run concurrently with the others ([any-thread]); the parallel
// loops of concurrent calls take turns on one pool.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <atomic>
#include <memory>
#include <string>

#include "backend/key_files.hpp"
#include "util/thread_pool.hpp"

namespace zkp::cpu {

class CpuProver final : public sdk::Prover {
 public:
  static constexpr const char* kName = "cpu";
  static constexpr const char* kOptionsHelp =
      "threads=0            worker threads for synthesis, NTT and MSM; 0 = every hardware thread\n"
      "verify=true          verify every proof with the pairing before returning it; a proof that\n"
      "                     fails means the witness does not satisfy the circuit\n"
      "                     (ZKP_ERR_UNSATISFIED_WITNESS)\n"
      "key_check=on_curve   zkey point checks at key_load: none, on_curve, or subgroup (slow for\n"
      "                     big keys: a scalar multiplication per point)\n"
      "r1cs=                path of the circuit's .r1cs: every witness is checked against its\n"
      "                     constraints in synthesize; every key loaded must match it\n";

  CpuProver(const sdk::HostServices& host, sdk::Options& options);

  uint32_t flags() const override { return ZKP_PROVER_FLAG_VERIFY; }
  uint32_t device_count() const override { return 1; }
  void device_info(uint32_t gpu_index, zkp_device_info_t& out) const override;
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t& source, int32_t gpu_index) override;
  void key_info(const zkp_key_t& key, zkp_key_info_t& out) const override;
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t& key, const zkp_witness_t& witness) override;
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                              int32_t gpu_index, uint32_t worker) override;
  void prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) override;
  bool verify(const zkp_key_t& key, std::span<const uint8_t> proof,
              std::span<const uint8_t> public_inputs) const override;

 private:
  const sdk::HostServices& host_;
  ThreadPool pool_;
  const bool self_check_;           // option verify
  backend::KeySettings key_settings_;  // options key_check and r1cs
  std::atomic<uint64_t> started_{0}, proved_{0}, busy_ns_{0};
};

}  // namespace zkp::cpu
