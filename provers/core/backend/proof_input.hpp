// ProofInput<E>: one proof's input after CurveKey::take_input has checked it — the assignment,
// A·w and B·w (and, for a caller's synthesis, C·w), and (r, s). It is the one place that knows
// whether the a/b/c came from this key's synthesize() or from the caller, so no backend branches
// on it again.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <span>
#include <vector>

#include "core/groth16/prover.hpp"
#include "core/groth16/synthesis.hpp"

namespace zkp::backend {

template <PairingEngine E>
class CurveKey;

// What synthesize() hands the host: the synthesis and the key it belongs to.
template <PairingEngine E>
struct SynthesisOf final : zkp_synthesis_t {
  const CurveKey<E>* key = nullptr;
  groth16::Synthesis<typename E::Fr> data;
  // Set when a proof took a and b over (ZKP_PROVE_INPUT_FINAL): what is left cannot be proved.
  bool handed_over = false;
};

template <PairingEngine E>
class ProofInput {
 public:
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;

  // The full assignment (standard form): the A, B1, B2 and C MSM scalars.
  std::span<const Int> witness() const { return synthesis_ != nullptr ? synthesis_->data.witness : assignment_; }
  // A·w and B·w on the domain (Montgomery form), and C·w, which is empty for this key's own
  // synthesis: there c = a∘b (snarkjs's prover), formed on the fly by the H step.
  std::span<const Fr> a() const { return synthesis_ != nullptr ? synthesis_->data.a : a_; }
  std::span<const Fr> b() const { return synthesis_ != nullptr ? synthesis_->data.b : b_; }
  std::span<const Fr> c() const { return c_; }
  const Fr& r() const { return r_; }
  const Fr& s() const { return s_; }

  // a, b, c as the work buffers the host H step consumes: copies of a synthesis (it stays the
  // host's: the ABI lets the host prove it again on another device), or its a and b moved out
  // when the host handed it over (ZKP_PROVE_INPUT_FINAL: two domain vectors fewer at the H
  // step's peak), or the caller's converted vectors moved out (read once).
  groth16::ProveInput<Fr> take_work_buffers(ThreadPool& pool) {
    if (handed_over_ != nullptr) {
      handed_over_->handed_over = true;
      return {handed_over_->data.witness, std::move(handed_over_->data.a), std::move(handed_over_->data.b), {}};
    }
    if (synthesis_ != nullptr) return groth16::prove_input(synthesis_->data, pool);
    return {assignment_, std::move(a_), std::move(b_), std::move(c_)};
  }

 private:
  friend class CurveKey<E>;
  const SynthesisOf<E>* synthesis_ = nullptr;
  SynthesisOf<E>* handed_over_ = nullptr;  // synthesis_, when the host gave up its memory
  std::vector<Int> assignment_;  // a caller's synthesis, converted and checked
  UninitializedVector<Fr> a_, b_, c_;
  Fr r_, s_;
};

}  // namespace zkp::backend
