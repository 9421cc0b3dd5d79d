// The cpu prover's keys and ops: a backend::CurveKey<E> (a zkey) or backend::BellpersonKey (a
// bellperson parameter file), which face the ABI, and the proof itself — groth16::prove or
// bellperson::prove on the prover's pool — which runs in prove_wait, or in prove_finish when the
// host calls no prove_wait.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

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

// A proof started by prove_start: computed by compute() (prove_wait, or finish), written out by
// finish().
class CpuOp : public zkp_prove_op_t {
 public:
  // The proof's arithmetic, the last reader of the op's input: after it only what take_input
  // copied (r, s, the public inputs) is read. Once; a second call does nothing.
  virtual void compute(const ProofSettings& settings) = 0;
  // compute() if not yet, then the output (and the self-check).
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

// The op of both key kinds: `prove` (stage times into its argument) computes the proof, which
// is written out the way both do.
template <class KeyT, class Input, class ProofT>
class CpuOpOf : public CpuOp {
 public:
  CpuOpOf(const KeyT& key, Input in) : key_(key), in_(std::move(in)) {}

  void compute(const ProofSettings& settings) override {
    if (proof_) return;
    const auto t0 = std::chrono::steady_clock::now();
    proof_ = prove(settings, times_);
    compute_ns_ = ns_since(t0);
  }

  void finish(zkp_prove_output_t& out, const ProofSettings& settings) override {
    key_.check_output(out);
    compute(settings);
    const auto t_out = std::chrono::steady_clock::now();
    key_.write_output(*proof_, in_, settings.self_check, "", out);
    const std::uint64_t output_ns = ns_since(t_out);
    out.gpu_index = 0;
    out.gpu_duration_ns = compute_ns_ + output_ns;
    out.epilogue_ns = times_.epilogue_ns + output_ns;
    out.msm_ns = times_.msm_ns();
    out.ntt_ns = times_.ntt_ns;
  }

 protected:
  virtual ProofT prove(const ProofSettings& settings, groth16::StageTimes& times) = 0;

  const KeyT& key_;
  Input in_;

 private:
  std::optional<ProofT> proof_;
  groth16::StageTimes times_;
  std::uint64_t compute_ns_ = 0;
};

template <PairingEngine E>
class CpuCurveOp final : public CpuOpOf<backend::CurveKey<E>, backend::ProofInput<E>, groth16::Proof<E>> {
  using Base = CpuOpOf<backend::CurveKey<E>, backend::ProofInput<E>, groth16::Proof<E>>;

 public:
  using Base::Base;

 private:
  groth16::Proof<E> prove(const ProofSettings& settings, groth16::StageTimes& times) override {
    return groth16::prove<E>(this->key_.proving_key(), this->in_.take_work_buffers(settings.pool), this->in_.r(),
                             this->in_.s(), settings.pool, &times);
  }
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

using BellpersonProof = groth16::Proof<backend::BellpersonKey::Engine>;

class CpuBellpersonOp final : public CpuOpOf<backend::BellpersonKey, backend::BellpersonProofInput, BellpersonProof> {
 public:
  using CpuOpOf::CpuOpOf;

 private:
  BellpersonProof prove(const ProofSettings& settings, groth16::StageTimes& times) override {
    return bellperson::prove(key_.key(), in_.take_work_buffers(), in_.r(), in_.s(), settings.pool, &times);
  }
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
