// The one instantiation of the generic pairing code for BN254 (declared extern in bn254.hpp).
#include "core/pairing/bn254.hpp"

namespace zkp {
template bn254::Fq12 multi_miller_loop<bn254::Engine>(std::span<const PairingInput<bn254::Engine>>);
template bn254::Fq12 final_exponentiation<bn254::Engine>(const bn254::Fq12&);
template bn254::Fq12 multi_pairing<bn254::Engine>(std::span<const PairingInput<bn254::Engine>>);
template bn254::Fq12 pairing<bn254::Engine>(const bn254::G1Affine&, const bn254::G2Affine&);
}  // namespace zkp
