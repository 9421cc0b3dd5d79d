// Reading snarkjs's binary files: the section container both share, a Groth16 .zkey
// (BN254 only) and a .wtns. Layouts from snarkjs (src/zkey_utils.js, src/wtns_utils.js):
//
//   file    = magic[4] | version u32 | section count u32 | sections
//   section = id u32 | size u64 | size bytes
//   zkey 2  = n8q u32 | q | n8r u32 | r | nVars u32 | nPublic u32 | domainSize u32
//             | alpha1 | beta1 | beta2 | gamma2 | delta1 | delta2
//   zkey 3  = IC: nPublic+1 G1 (the verifier's public-input bases)
//   zkey 4  = count u32 | count x (matrix u32 | row u32 | wire u32 | value n8r)
//   zkey 5..9 = A (nVars G1) | B1 (nVars G1) | B2 (nVars G2) | C (nVars-nPublic-1 G1)
//             | H (domainSize G1)
//   wtns 1  = n8 u32 | prime n8 | count u32;  wtns 2 = count values, n8 bytes each
//
// Points are affine, coordinates little-endian in Montgomery form (R = 2^256), all zero for the
// point at infinity; witness values are standard form. A coefficient value is c * R^2 mod r, so
// one Montgomery product with a standard-form witness value gives c * w in Montgomery form.
#pragma once

#include "bn254.hpp"

#include <zkpipe/sdk/error.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace ref {

struct Coefficient {
  uint32_t matrix;  // 0: A, 1: B
  uint32_t row;
  uint32_t wire;
  Fr value;  // c * R (the Montgomery form of c*R) as stored; see above
};

struct ProvingKey {
  uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  Affine<Fq> alpha1, beta1, delta1;
  Affine<Fq2> beta2, gamma2, delta2;
  std::vector<Affine<Fq>> ic;  // the verifying half: e(A,B) = e(α1,β2)·e(Σ x_i·IC_i, γ2)·e(C,δ2)
  std::vector<Coefficient> coefficients;
  std::vector<Affine<Fq>> a, b1, c, h;
  std::vector<Affine<Fq2>> b2;
};

// A bounds-checked reader over one section; every failure names the file and what was short.
class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  std::span<const uint8_t> take(size_t n) {
    if (n > bytes_.size() - pos_) {
      throw zkp::sdk::Error(ZKP_ERR_BAD_INPUT, what_ + ": truncated (needs " + std::to_string(n) +
                                                   " more bytes at offset " + std::to_string(pos_) + ")");
    }
    pos_ += n;
    return bytes_.subspan(pos_ - n, n);
  }
  uint32_t u32() { return static_cast<uint32_t>(le(take(4))); }
  uint64_t u64() { return le(take(8)); }
  size_t remaining() const { return bytes_.size() - pos_; }

 private:
  static uint64_t le(std::span<const uint8_t> b) {
    uint64_t v = 0;
    for (size_t i = b.size(); i-- > 0;) v = (v << 8) | b[i];
    return v;
  }
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
  std::string what_;
};

// The sections of a snarkjs binary file, by id, after checking its magic.
std::map<uint32_t, std::span<const uint8_t>> read_sections(std::span<const uint8_t> file, const char magic[4],
                                                           const std::string& what);

// A Groth16 BN254 proving key; ZKP_ERR_UNSUPPORTED for another protocol or curve.
ProvingKey read_zkey(std::span<const uint8_t> file, const std::string& what);

// The n_vars standard-form values of a .wtns, checked to be BN254 scalars (< r).
std::vector<Limbs> read_wtns(std::span<const uint8_t> file, uint32_t n_vars, const std::string& what);

}  // namespace ref
