// The BLS12-381 fields: bls12_381::Fq (base), bls12_381::Fr (scalars), bls12_381::Fq2 (G2 coordinates).
#pragma once

#include <type_traits>

#include "core/ff/fp.hpp"
#include "core/ff/fp2.hpp"
#include "core/ff/fp_params_bls12_381.hpp"

namespace zkp::bls12_381 {
using Fq = Fp<FqParams>;
using Fr = Fp<FrParams>;
using Fq2 = Fp2<Fq>;

// Plain words, so that arrays of them are the zkey's Montgomery little-endian bytes.
static_assert(sizeof(Fq) == 48 && sizeof(Fr) == 32 && sizeof(Fq2) == 96);
static_assert(std::is_trivially_copyable_v<Fq> && std::is_trivially_copyable_v<Fq2> &&
              std::is_standard_layout_v<Fq> && std::is_standard_layout_v<Fq2>);
}  // namespace zkp::bls12_381
