// The one instantiation of the generic pairing code for BLS12-381 (declared extern in bls12_381.hpp).
#include "core/pairing/bls12_381.hpp"

namespace zkp {
template bls12_381::Fq12 multi_miller_loop<bls12_381::Engine>(std::span<const PairingInput<bls12_381::Engine>>);
template bls12_381::Fq12 final_exponentiation<bls12_381::Engine>(const bls12_381::Fq12&);
template bls12_381::Fq12 multi_pairing<bls12_381::Engine>(std::span<const PairingInput<bls12_381::Engine>>);
template bls12_381::Fq12 pairing<bls12_381::Engine>(const bls12_381::G1Affine&, const bls12_381::G2Affine&);
}  // namespace zkp
