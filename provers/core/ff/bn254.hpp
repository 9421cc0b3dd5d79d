// The BN254 fields: bn254::Fq (base), bn254::Fr (scalars), bn254::Fq2 (G2 coordinates).
#pragma once

#include <type_traits>

#include "core/ff/fp.hpp"
#include "core/ff/fp2.hpp"
#include "core/ff/fp_params_bn254.hpp"

namespace zkp::bn254 {
using Fq = Fp<FqParams>;
using Fr = Fp<FrParams>;
using Fq2 = Fp2<Fq>;

// Plain words, so that arrays of them are the zkey's Montgomery little-endian bytes.
static_assert(sizeof(Fq) == 32 && sizeof(Fr) == 32 && sizeof(Fq2) == 64);
static_assert(std::is_trivially_copyable_v<Fq> && std::is_trivially_copyable_v<Fq2> &&
              std::is_standard_layout_v<Fq> && std::is_standard_layout_v<Fq2>);
}  // namespace zkp::bn254
