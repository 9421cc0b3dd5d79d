// The cpu prover's keys and ops: a backend::CurveKey<E> (a zkey) or backend::BellpersonKey (a
// bellperson parameter file), which face the ABI, and the proof itself — groth16::prove or
// bellperson::prove on the prover's pool — which runs in prove_finish.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <chrono>
#include <cstdint>
#include <memory>

#include "core/backend/bellperson_key.hpp"
#include "core/backend/curve_key.hpp"
#include "core/bellperson/prover.hpp"
#include "core/groth16/prover.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::cpu {

// What a proof needs of the prover.
struct ProofSettings {
  ThreadPool& pool;
  bool self_check;  // option verify
};

// A proof started by prove_start, finished (all of its work done) by prove_finish.
class CpuOp : public zkp_prove_op_t {
 public:
  virtual void finish(zkp_prove_output_t& out, const ProofSettings& settings) = 0;
};

// The ABI handle of a loaded key.
class CpuKey : public zkp_key_t {
 public:
  virtual const backend::Key& key() const = 0;
  virtual std::unique_ptr<CpuOp> start(const zkp_prove_input_t& input, ThreadPool& pool) const = 0;
};

inline std::uint64_t ns_since(std::chrono::steady_clock::time_point t0) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

// Runs `prove` (stage times into its argument) and writes the output the way both key kinds do.
template <class KeyT, class Input, class Prove>
void finish_on_cpu(const KeyT& key, const Input& in, const ProofSettings& settings, zkp_prove_output_t& out,
                   Prove&& prove) {
  key.check_output(out);
  const auto t0 = std::chrono::steady_clock::now();
  groth16::StageTimes times;
  const auto proof = prove(times);
  const auto t_out = std::chrono::steady_clock::now();
  key.write_output(proof, in, settings.self_check, "", out);
  out.gpu_index = 0;
  out.gpu_duration_ns = ns_since(t0);
  out.epilogue_ns = times.epilogue_ns + ns_since(t_out);
  out.msm_ns = times.msm_ns();
  out.ntt_ns = times.ntt_ns;
}

template <PairingEngine E>
class CpuCurveOp final : public CpuOp {
 public:
  CpuCurveOp(const backend::CurveKey<E>& key, backend::ProofInput<E> in) : key_(key), in_(std::move(in)) {}

  void finish(zkp_prove_output_t& out, const ProofSettings& settings) override {
    finish_on_cpu(key_, in_, settings, out, [&](groth16::StageTimes& times) {
      return groth16::prove<E>(key_.proving_key(), in_.take_work_buffers(settings.pool), in_.r(), in_.s(), settings.pool, &times);
    });
  }

 private:
  const backend::CurveKey<E>& key_;
  backend::ProofInput<E> in_;
};

template <PairingEngine E>
class CpuCurveKey final : public CpuKey {
 public:
  explicit CpuCurveKey(std::unique_ptr<backend::CurveKey<E>> key) : key_(std::move(key)) {}
  const backend::Key& key() const override { return *key_; }
  std::unique_ptr<CpuOp> start(const zkp_prove_input_t& input, ThreadPool& pool) const override {
    return std::make_unique<CpuCurveOp<E>>(*key_, key_->take_input(input, pool));
  }

 private:
  std::unique_ptr<backend::CurveKey<E>> key_;
};

class CpuBellpersonOp final : public CpuOp {
 public:
  CpuBellpersonOp(const backend::BellpersonKey& key, backend::BellpersonProofInput in) : key_(key), in_(std::move(in)) {}

  void finish(zkp_prove_output_t& out, const ProofSettings& settings) override {
    finish_on_cpu(key_, in_, settings, out, [&](groth16::StageTimes& times) {
      return bellperson::prove(key_.key(), in_.take_work_buffers(), in_.r(), in_.s(), settings.pool, &times);
    });
  }

 private:
  const backend::BellpersonKey& key_;
  backend::BellpersonProofInput in_;
};

class CpuBellpersonKey final : public CpuKey {
 public:
  explicit CpuBellpersonKey(std::unique_ptr<backend::BellpersonKey> key) : key_(std::move(key)) {}
  const backend::Key& key() const override { return *key_; }
  std::unique_ptr<CpuOp> start(const zkp_prove_input_t& input, ThreadPool& pool) const override {
    return std::make_unique<CpuBellpersonOp>(*key_, key_->take_input(input, pool));
  }

 private:
  std::unique_ptr<backend::BellpersonKey> key_;
};

}  // namespace zkp::cpu
