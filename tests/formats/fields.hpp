// Test-only field types for the two curves' scalar fields (r1cs checks) and base fields
// (decoding zkey Montgomery coordinates).
#pragma once

#include "core/formats/curve.hpp"
#include "test_field.hpp"

namespace zkp::test {

struct Bn254FrParams {
  static ByteView modulus() { return curve_info(Curve::bn254).r; }
};
struct Bls12381FrParams {
  static ByteView modulus() { return curve_info(Curve::bls12_381).r; }
};
struct Bn254FqParams {
  static ByteView modulus() { return curve_info(Curve::bn254).q; }
};
struct Bls12381FqParams {
  static ByteView modulus() { return curve_info(Curve::bls12_381).q; }
};

using Bn254Fr = MontField<4, Bn254FrParams>;
using Bls12381Fr = MontField<4, Bls12381FrParams>;
using Bn254Fq = MontField<4, Bn254FqParams>;
using Bls12381Fq = MontField<6, Bls12381FqParams>;

}  // namespace zkp::test
