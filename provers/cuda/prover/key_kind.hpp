// The two kinds of key the cuda prover places on a device, told apart where their proofs
// differ (proof_stages.hpp, resident_key.hpp):
//   groth16::ProvingKey<E>  a snarkjs zkey: every query holds every wire, so A, B1 and B2 read
//                           the witness as uploaded; H is evaluations on the odd coset (m of
//                           them), on the device or the host
//   bellperson::Key         bellperson parameters: the a and b queries hold the variables their
//                           densities set, so their scalars are gathered first; H is the m − 1
//                           coefficients of (A·B − C)/Z from the coset 7·ω^i, on the host for now
#pragma once

#include <type_traits>

#include "core/bellperson/key.hpp"
#include "core/groth16/proving_key.hpp"

namespace zkp::cuda::prover {

template <class PK>
inline constexpr bool kBellpersonKey = std::is_same_v<PK, bellperson::Key>;

}  // namespace zkp::cuda::prover
