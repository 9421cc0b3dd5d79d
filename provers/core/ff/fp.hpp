// Fp<Params>: the prime field Z/pZ in Montgomery form, N 64-bit limbs.
//
// Params supplies the modulus; R, R², R³ and −p^{−1} mod 2^64 are derived from it here
// at compile time. A Params struct has:
//
//   static constexpr BigInt<N> kModulus;   // odd prime, top limb < 2^63 − 1
//   static constexpr const char* kName;    // for messages and test names
// and, for the scalar fields that NTTs run over:
//   static constexpr std::uint64_t kRootOfUnityBase;  // g, a quadratic non-residue
//   static constexpr BigInt<N> kTwoAdicRoot;          // g^t (standard form), p − 1 = 2^s·t, t odd:
//       // how ffjavascript builds Fr.w[s]; a literal, and tests/core checks it equals g^t
//
// Representation: one BigInt<N> holding a·R mod p, R = 2^(64N), fully reduced.
// The object is exactly N words, trivially copyable, and default-constructs to zero,
// so arrays of it can be memcpy'd to a device or read straight from a zkey section
// (which stores field elements in this same Montgomery form, little-endian).
//
// Nothing here is constant-time (inverse, pow, decoding branch on data).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/ff/bigint.hpp"
#include "core/ff/montgomery.hpp"

namespace zkp {

template <class P>
class Fp {
 public:
  using Params = P;
  static constexpr std::size_t kLimbs = P::kModulus.kLimbs;
  using Int = BigInt<kLimbs>;

  static constexpr Int kModulus = P::kModulus;
  static constexpr std::size_t kBits = kModulus.num_bits();  // 254, 255 or 381
  static constexpr std::size_t kBytes = Int::kBytes;         // n8 in snarkjs: 32 or 48
  static constexpr std::uint64_t kInv = mont::neg_inv64(kModulus.limbs[0]);
  static constexpr Int kR1 = mont::pow2_mod(kModulus, 64 * kLimbs);       // R mod p: one
  static constexpr Int kR2 = mont::pow2_mod(kModulus, 2 * 64 * kLimbs);   // R² mod p: into Montgomery form
  static constexpr Int kR3 = mont::mul<kLimbs, kModulus, kInv>(kR2, kR2);  // R³ mod p: fixes up inverse()

  static_assert(kModulus.is_odd() && mont::has_spare_bit(kModulus));

  constexpr Fp() = default;  // zero

  // --- construction -------------------------------------------------------------------

  static constexpr Fp zero() { return {}; }
  static constexpr Fp one() { return from_mont_unchecked(kR1); }

  static constexpr Fp from_u64(std::uint64_t v) { return from_canonical_unchecked(Int::from_u64(v)); }

  // The integer v in [0, p); nullopt if v ≥ p.
  static constexpr std::optional<Fp> from_bigint(const Int& v) {
    if (v >= kModulus) return std::nullopt;
    return from_canonical_unchecked(v);
  }

  // Any v < 2^(64N), reduced mod p by repeated subtraction (at most ⌊2^(64N)/p⌋ ≤ 9 times
  // for the zkpipe moduli).
  static constexpr Fp from_bigint_reduce(Int v) {
    while (v >= kModulus) v.sub_in_place(kModulus);
    return from_canonical_unchecked(v);
  }

  // Raw Montgomery limbs, trusted to be < p (e.g. produced by this class).
  static constexpr Fp from_mont_unchecked(const Int& mont) {
    Fp r;
    r.mont_ = mont;
    return r;
  }

  // For compile-time constants written as decimal text; throws (a compile error in a
  // constant expression) unless the text is a canonical element.
  static constexpr Fp from_decimal_or_throw(std::string_view s) {
    const auto v = from_bigint(Int::from_decimal(s));
    if (!v) throw std::invalid_argument("Fp::from_decimal_or_throw: value >= p");
    return *v;
  }
  static constexpr Fp from_hex_or_throw(std::string_view s) {
    const auto v = from_bigint(Int::from_hex(s));
    if (!v) throw std::invalid_argument("Fp::from_hex_or_throw: value >= p");
    return *v;
  }

  // --- byte and text encodings ----------------------------------------------------------

  // Standard form, kBytes little-endian (wtns values, r1cs coefficients, proof bytes).
  // nullopt if the value is not canonical (≥ p).
  static constexpr std::optional<Fp> from_bytes(std::span<const std::uint8_t, kBytes> b) {
    return from_bigint(Int::from_le_bytes(b));
  }
  // Standard form, any value below 2^(64N), reduced mod p.
  static constexpr Fp from_bytes_reduce(std::span<const std::uint8_t, kBytes> b) {
    return from_bigint_reduce(Int::from_le_bytes(b));
  }
  constexpr void to_bytes(std::span<std::uint8_t, kBytes> out) const { to_bigint().to_le_bytes(out); }

  // Montgomery form a·R mod p, kBytes little-endian: how zkey sections store coordinates.
  // nullopt if the stored value is ≥ p.
  static constexpr std::optional<Fp> from_mont_bytes(std::span<const std::uint8_t, kBytes> b) {
    const Int v = Int::from_le_bytes(b);
    if (v >= kModulus) return std::nullopt;
    return from_mont_unchecked(v);
  }
  constexpr void to_mont_bytes(std::span<std::uint8_t, kBytes> out) const { mont_.to_le_bytes(out); }

  // Decimal text of the standard-form value, as in proof.json / public.json.
  std::string to_decimal() const { return to_bigint().to_decimal(); }
  // nullopt unless s is plain decimal digits of a value < p.
  static constexpr std::optional<Fp> from_decimal(std::string_view s) {
    const auto v = Int::parse_decimal(s);
    if (!v) return std::nullopt;
    return from_bigint(*v);
  }

  // The standard-form integer (one Montgomery multiplication by 1).
  constexpr Int to_bigint() const { return mont::mul<kLimbs, kModulus, kInv>(mont_, Int::from_u64(1)); }
  // The Montgomery limbs a·R mod p.
  constexpr const Int& mont() const { return mont_; }

  // Uniform element from a 64-bit generator (std::mt19937_64 and the like): rejection
  // sampling on kBits bits, fewer than 2 draws per element on average for every zkpipe p.
  template <class Rng>
    requires std::uniform_random_bit_generator<Rng> && (Rng::min() == 0) &&
             (Rng::max() == std::numeric_limits<std::uint64_t>::max())
  static Fp random(Rng& rng) {
    constexpr std::size_t kTopBits = kBits - 64 * (kLimbs - 1);
    constexpr std::uint64_t kTopMask = kTopBits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << kTopBits) - 1;
    for (;;) {
      Int v;
      for (auto& l : v.limbs) l = rng();
      v.limbs[kLimbs - 1] &= kTopMask;
      if (v < kModulus) return from_mont_unchecked(v);  // uniform in Montgomery form is uniform
    }
  }

  // --- predicates -------------------------------------------------------------------------

  constexpr bool is_zero() const { return mont_.is_zero(); }
  constexpr bool is_one() const { return mont_ == kR1; }
  friend constexpr bool operator==(const Fp&, const Fp&) = default;

  // --- arithmetic -------------------------------------------------------------------------

  friend constexpr Fp operator+(const Fp& a, const Fp& b) {
    return from_mont_unchecked(mont::add<kLimbs, kModulus>(a.mont_, b.mont_));
  }
  friend constexpr Fp operator-(const Fp& a, const Fp& b) {
    return from_mont_unchecked(mont::sub<kLimbs, kModulus>(a.mont_, b.mont_));
  }
  friend constexpr Fp operator*(const Fp& a, const Fp& b) {
    return from_mont_unchecked(mont::mul<kLimbs, kModulus, kInv>(a.mont_, b.mont_));
  }
  constexpr Fp operator-() const { return zero() - *this; }
  constexpr Fp& operator+=(const Fp& b) { return *this = *this + b; }
  constexpr Fp& operator-=(const Fp& b) { return *this = *this - b; }
  constexpr Fp& operator*=(const Fp& b) { return *this = *this * b; }

  constexpr Fp dbl() const { return *this + *this; }

  // K·a for a small constant K by double-and-add (3·X, 8·C in curve formulas): about
  // log2(K) additions, far cheaper than a multiplication.
  template <std::uint64_t K>
  constexpr Fp mul_small() const {
    static_assert(K > 0);
    Fp r = *this;
    for (int i = 62 - __builtin_clzll(K); i >= 0; --i) {
      r = r.dbl();
      if ((K >> i) & 1) r += *this;
    }
    return r;
  }
  constexpr Fp square() const { return from_mont_unchecked(mont::sqr<kLimbs, kModulus, kInv>(mont_)); }

  // a^e, left-to-right square-and-multiply over the bits of e.
  template <std::size_t M>
  constexpr Fp pow(const BigInt<M>& e) const {
    Fp r = one();
    for (std::size_t i = e.num_bits(); i-- > 0;) {
      r = r.square();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }
  constexpr Fp pow(std::uint64_t e) const { return pow(BigInt<1>::from_u64(e)); }

  // a^{−1}; zero maps to zero (callers that must reject zero check is_zero first).
  // Binary extended Euclid (Menezes et al., Handbook of Applied Cryptography, Alg. 14.61
  // restricted to odd p) on the Montgomery value aR gives (aR)^{−1}; one Montgomery
  // product by R³ turns that into a^{−1}R. Variable time; ≈ 2·kBits cheap iterations.
  constexpr Fp inverse() const {
    if (is_zero()) return {};
    Int u = mont_, v = kModulus;
    Int x1 = Int::from_u64(1), x2;
    const Int one_int = Int::from_u64(1);
    const auto halve = [](Int& x) {  // x/2 mod p; x + p cannot overflow by the spare bit
      if (x.is_odd()) x.add_in_place(kModulus);
      x.shr1();
    };
    while (u != one_int && v != one_int) {
      while (!u.is_odd()) {
        u.shr1();
        halve(x1);
      }
      while (!v.is_odd()) {
        v.shr1();
        halve(x2);
      }
      if (u >= v) {
        u.sub_in_place(v);
        x1 = mont::sub<kLimbs, kModulus>(x1, x2);
      } else {
        v.sub_in_place(u);
        x2 = mont::sub<kLimbs, kModulus>(x2, x1);
      }
    }
    return from_mont_unchecked(mont::mul<kLimbs, kModulus, kInv>(u == one_int ? x1 : x2, kR3));
  }

  // --- square roots (p ≡ 3 mod 4 only: the base fields Fq of both curves) --------------------

  // Whether square roots take the one-exponentiation path below.
  static constexpr bool kSqrtByExponent = (kModulus.limbs[0] & 3) == 3;

  // A square root of a, or nullopt when a is not a square. For p ≡ 3 (mod 4),
  // r = a^((p+1)/4) satisfies r² = a·a^((p−1)/2) = ±a by Euler's criterion, so one
  // exponentiation and one squaring decide (Cohen, "A Course in Computational Algebraic Number
  // Theory", §1.5.1). Which of the two roots comes back is unspecified; callers that need a
  // particular one (the zcash point encodings) pick it themselves. Variable time.
  constexpr std::optional<Fp> sqrt() const
    requires kSqrtByExponent
  {
    const Fp r = pow(sqrt_exponent());
    if (r.square() != *this) return std::nullopt;
    return r;
  }

  // (p + 1)/4: no overflow, the top limb has a spare bit (static_assert above).
  static constexpr Int sqrt_exponent()
    requires kSqrtByExponent
  {
    Int e = kModulus;
    e.add_in_place(Int::from_u64(1));
    e.shr1();
    e.shr1();
    return e;
  }

  // --- two-adic roots of unity (only for Params with kTwoAdicRoot: the scalar fields) --------

  // s with p − 1 = 2^s·t, t odd: 28 for BN254 Fr, 32 for BLS12-381 Fr.
  static constexpr std::size_t two_adicity() {
    Int t = kModulus;
    t.limbs[0] -= 1;  // p odd: no borrow
    std::size_t s = 0;
    for (; !t.is_odd(); ++s) t.shr1();
    return s;
  }

  // w = g^t, a primitive 2^s-th root of unity; the value ffjavascript stores as Fr.w[s].
  static constexpr Fp two_adic_root()
    requires requires { P::kTwoAdicRoot; }
  {
    return from_canonical_unchecked(P::kTwoAdicRoot);
  }

  // A primitive 2^log_n-th root of unity, w^(2^(s − log_n)): ffjavascript's Fr.w[log_n],
  // the generator snarkjs uses for a domain of size 2^log_n. Throws unless log_n ≤ s.
  static constexpr Fp root_of_unity(std::size_t log_n)
    requires requires { P::kTwoAdicRoot; }
  {
    if (log_n > two_adicity()) throw std::invalid_argument("Fp::root_of_unity: log_n exceeds the two-adicity");
    Fp w = two_adic_root();
    for (std::size_t i = log_n; i < two_adicity(); ++i) w = w.square();
    return w;
  }

 private:
  static constexpr Fp from_canonical_unchecked(const Int& v) {
    return from_mont_unchecked(mont::mul<kLimbs, kModulus, kInv>(v, kR2));
  }

  Int mont_{};
};

}  // namespace zkp
