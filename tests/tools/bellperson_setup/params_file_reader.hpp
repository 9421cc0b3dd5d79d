// A test-only reader of bellperson parameter files, written from the format description
// (bellperson params.rs / verifying_key.rs; blst's uncompressed point bytes) and not from the
// writer: big-endian counts, flags checked, every point decoded with zkpipe's field code and
// checked on the curve and in the prime-order subgroup. Throws std::runtime_error on anything
// out of place, including bytes after the last query.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"

namespace zkp::bellperson_setup::test {

struct ParsedParams {
  bls12_381::G1Affine alpha_g1, beta_g1, delta_g1;
  bls12_381::G2Affine beta_g2, gamma_g2, delta_g2;
  std::vector<bls12_381::G1Affine> ic, h, l, a, b_g1;
  std::vector<bls12_381::G2Affine> b_g2;
};

class ParamsFileReader {
 public:
  explicit ParamsFileReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  ParsedParams read() {
    ParsedParams p;
    p.alpha_g1 = g1(false);
    p.beta_g1 = g1(false);
    p.beta_g2 = g2();
    p.gamma_g2 = g2();
    p.delta_g1 = g1(false);
    p.delta_g2 = g2();
    p.ic = g1_query(true);  // an input's IC point may be infinity; the queries' may not
    p.h = g1_query(false);
    p.l = g1_query(false);
    p.a = g1_query(false);
    p.b_g1 = g1_query(false);
    const std::uint32_t n = u32();
    for (std::uint32_t i = 0; i < n; ++i) p.b_g2.push_back(g2());
    if (pos_ != bytes_.size()) fail(std::to_string(bytes_.size() - pos_) + " bytes after b_g2");
    return p;
  }

 private:
  static constexpr std::size_t kFq = bls12_381::Fq::kBytes;

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("params byte " + std::to_string(pos_) + ": " + why);
  }
  std::span<const std::uint8_t> take(std::size_t n) {
    if (bytes_.size() - pos_ < n) fail("truncated");
    const auto s = bytes_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::uint32_t u32() {
    const auto b = take(4);
    return std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 | std::uint32_t{b[2]} << 8 | b[3];
  }
  // Returns true for the infinity encoding (0x40, zeros); otherwise requires all flags clear.
  bool flags(std::span<const std::uint8_t> p, bool infinity_ok) const {
    if (p[0] == 0x40 && std::all_of(p.begin() + 1, p.end(), [](std::uint8_t b) { return b == 0; })) {
      if (!infinity_ok) fail("point at infinity in a query");
      return true;
    }
    if ((p[0] & 0xe0) != 0) fail("flag bits set on an uncompressed finite point");
    return false;
  }
  bls12_381::Fq fq(std::span<const std::uint8_t> be) const {
    std::array<std::uint8_t, kFq> le{};
    std::reverse_copy(be.begin(), be.end(), le.begin());
    const auto v = bls12_381::Fq::from_bytes(le);
    if (!v) fail("coordinate not below q");
    return *v;
  }
  template <class A>
  A checked(const A& p) const {
    if (!p.is_on_curve()) fail("point not on the curve");
    if (!bls12_381::in_prime_subgroup(p)) fail("point not in the prime-order subgroup");
    return p;
  }
  bls12_381::G1Affine g1(bool infinity_ok) {
    const auto p = take(2 * kFq);
    if (flags(p, infinity_ok)) return bls12_381::G1Affine::identity();
    return checked(bls12_381::G1Affine::from_xy(fq(p.subspan(0, kFq)), fq(p.subspan(kFq, kFq))));
  }
  bls12_381::G2Affine g2() {
    const auto p = take(4 * kFq);
    flags(p, false);
    const bls12_381::Fq2 x{fq(p.subspan(kFq, kFq)), fq(p.subspan(0, kFq))};  // c1 is written first
    const bls12_381::Fq2 y{fq(p.subspan(3 * kFq, kFq)), fq(p.subspan(2 * kFq, kFq))};
    return checked(bls12_381::G2Affine::from_xy(x, y));
  }
  std::vector<bls12_381::G1Affine> g1_query(bool infinity_ok) {
    const std::uint32_t n = u32();
    std::vector<bls12_381::G1Affine> q;
    for (std::uint32_t i = 0; i < n; ++i) q.push_back(g1(infinity_ok));
    return q;
  }

  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace zkp::bellperson_setup::test
