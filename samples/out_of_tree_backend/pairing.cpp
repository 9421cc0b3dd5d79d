#include "pairing.hpp"

#include <array>
#include <vector>

namespace ref {

namespace {

const Fq2 kXi{Fq::from_int({9, 0, 0, 0}), Fq::one()};

Fq2 mul_by_xi(const Fq2& a) { return a * kXi; }
Fq2 scale(const Fq2& a, const Fq& s) { return {a.c0 * s, a.c1 * s}; }

struct Fq12 {
  std::array<Fq2, 6> c{};  // Σ c_i w^i
  static Fq12 one() {
    Fq12 r;
    r.c[0] = Fq2::one();
    return r;
  }
  bool operator==(const Fq12& o) const { return c == o.c; }
  Fq12 operator*(const Fq12& o) const {
    std::array<Fq2, 11> t{};
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 6; ++j) t[i + j] = t[i + j] + c[i] * o.c[j];
    }
    Fq12 r;
    for (int i = 0; i < 6; ++i) r.c[i] = t[i] + (i + 6 < 11 ? mul_by_xi(t[i + 6]) : Fq2::zero());
    return r;
  }
};

// A big unsigned integer, little-endian limbs, fixed width (p^12 < 2^3048).
using Big = std::vector<uint64_t>;
constexpr size_t kBigLimbs = 48;

Big big_mul(const Big& a, const Big& b) {
  Big r(kBigLimbs, 0);
  for (size_t i = 0; i < kBigLimbs; ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; i + j < kBigLimbs; ++j) {
      const u128 s = static_cast<u128>(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<uint64_t>(s);
      carry = static_cast<uint64_t>(s >> 64);
    }
  }
  return r;
}

// (p^12 − 1)/r by binary long division (r divides p^12 − 1: the embedding degree is 12).
Big final_exponent() {
  Big p(kBigLimbs, 0), e(kBigLimbs, 0);
  for (int i = 0; i < 4; ++i) p[i] = FqParams::modulus[i];
  Big pk = p;
  for (int k = 1; k < 12; ++k) pk = big_mul(pk, p);
  for (size_t i = 0; i < kBigLimbs && pk[i]-- == 0; ++i) {
  }  // − 1 (borrow through zero limbs)
  Limbs rem{};
  for (int i = static_cast<int>(64 * kBigLimbs) - 1; i >= 0; --i) {
    add_limbs(rem, rem);  // rem < r < 2^254: no carry out
    rem[0] |= (pk[i / 64] >> (i % 64)) & 1;
    if (geq(rem, FrParams::modulus)) {
      sub_limbs(rem, FrParams::modulus);
      e[i / 64] |= uint64_t{1} << (i % 64);
    }
  }
  return e;
}

Fq12 pow(const Fq12& f, const Big& e) {
  Fq12 r = Fq12::one();
  for (int i = static_cast<int>(64 * e.size()) - 1; i >= 0; --i) {
    r = r * r;
    if ((e[i / 64] >> (i % 64)) & 1) r = r * f;
  }
  return r;
}

// The line through T with twist slope λ, evaluated at P (see the header).
Fq12 line(const Fq2& lambda, const Fq2& xt, const Fq2& yt, const Affine<Fq>& p) {
  Fq12 l;
  l.c[0] = {p.y, Fq::zero()};
  l.c[1] = -scale(lambda, p.x);
  l.c[3] = lambda * xt - yt;
  return l;
}

// f_{T,Q}(P) for the ate loop length T = 6x^2, in affine twist coordinates. No step meets
// T = ±Q: every partial multiple k·Q has 1 < k < T < r.
Fq12 miller_loop(const Affine<Fq>& p, const Affine<Fq2>& q) {
  constexpr u128 kX = 4965661367192848881u;
  constexpr u128 kT = 6 * kX * kX;
  int top = 127;
  while (!((kT >> top) & 1)) --top;
  Fq12 f = Fq12::one();
  Fq2 xt = q.x, yt = q.y;
  for (int i = top - 1; i >= 0; --i) {
    const Fq2 x2 = xt * xt;
    Fq2 lambda = (x2 + x2 + x2) * (yt + yt).inverse();
    f = f * f * line(lambda, xt, yt, p);
    Fq2 x3 = lambda * lambda - xt - xt;
    yt = lambda * (xt - x3) - yt;
    xt = x3;
    if ((kT >> i) & 1) {
      lambda = (q.y - yt) * (q.x - xt).inverse();
      f = f * line(lambda, xt, yt, p);
      x3 = lambda * lambda - xt - q.x;
      yt = lambda * (xt - x3) - yt;
      xt = x3;
    }
  }
  return f;
}

}  // namespace

bool pairing_product_is_one(std::span<const std::pair<Affine<Fq>, Affine<Fq2>>> pairs) {
  static const Big e = final_exponent();
  Fq12 f = Fq12::one();
  for (const auto& [p, q] : pairs) {
    if (!p.infinity && !q.infinity) f = f * miller_loop(p, q);
  }
  return pow(f, e) == Fq12::one();
}

bool on_curve(const Affine<Fq>& p) {
  if (p.infinity) return true;
  return p.y * p.y == p.x * p.x * p.x + Fq::from_int({3, 0, 0, 0});
}

bool on_curve_in_subgroup(const Affine<Fq2>& q) {
  if (q.infinity) return true;
  const Fq2 b = Fq2{Fq::from_int({3, 0, 0, 0}), Fq::zero()} * kXi.inverse();
  if (!(q.y * q.y == q.x * q.x * q.x + b)) return false;
  return mul(G2::from(q), FrParams::modulus).is_infinity();
}

}  // namespace ref
