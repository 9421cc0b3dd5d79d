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
//   prove_wait   does the proving work on the calling thread (H, the five MSMs, the epilogue's
//                arithmetic), the last that reads the input.
//   prove_finish does it if prove_wait did not, then, with option verify (default on), checks
//                the proof with the pairing and fails with ZKP_ERR_UNSATISFIED_WITNESS instead
//                of returning a bad proof. gpu_duration_ns is the wall time of all of that.
// Doing the work on the worker's thread rather than on one started by prove_start is deliberate:
// on a CPU the "device" is the same cores, so overlapping two proofs gains nothing and would
// double the working memory.
//
// Thread-safety: every call may run concurrently with the others ([any-thread]); the parallel
// loops of concurrent calls take turns on one pool.
#pragma once

#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <atomic>
#include <memory>
#include <string>

#include "core/backend/key_files.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::cpu {

struct CpuSettings {
  unsigned threads = 0;   // 0: every hardware thread
  bool verify = true;     // the self-check
  backend::KeySettings key;
};

class CpuProver final : public sdk::Prover {
 public:
  static constexpr const char* kName = "cpu";
  // Every option: its default, parsing and help (what `zkpipe plugins` prints) in one table.
  static const sdk::OptionTable<CpuSettings>& option_table();

  CpuProver(const sdk::HostServices& host, sdk::Options& options);

  uint32_t flags() const override { return ZKP_PROVER_FLAG_VERIFY; }
  uint32_t device_count() const override { return 1; }
  void device_info(uint32_t gpu_index, zkp_device_info_t& out) const override;
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t& source, int32_t gpu_index) override;
  void key_info(const zkp_key_t& key, zkp_key_info_t& out) const override;
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t& key, const zkp_witness_t& witness) override;
  // zkp_prover_t.synthesize_into (the SDK fills the entry because this exists).
  void synthesize_into(const zkp_key_t& key, const zkp_witness_t& witness, std::span<uint8_t> buffer,
                       zkp_synthesized_t& out);
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                              int32_t gpu_index, uint32_t worker) override;
  void prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) override;
  void prove_wait(zkp_prove_op_t& op);
  bool verify(const zkp_key_t& key, std::span<const uint8_t> proof,
              std::span<const uint8_t> public_inputs) const override;

 private:
  const sdk::HostServices& host_;
  const CpuSettings settings_;
  ThreadPool pool_;
  std::atomic<uint64_t> started_{0}, proved_{0}, busy_ns_{0};
};

}  // namespace zkp::cpu
