#include "groth16.hpp"

#include "pairing.hpp"

#include <stdexcept>

namespace ref {

namespace {

// ω for a domain of 2^log_n points: ffjavascript's choice, which the zkey's H bases assume:
// nqr^t (nqr the smallest quadratic non-residue, r − 1 = 2^s·t, t odd) generates the 2^s
// roots of unity, squared s − log_n times.
Fr root_of_unity(uint32_t log_n) {
  Limbs r_minus_1 = FrParams::modulus;
  sub_limbs(r_minus_1, Limbs{1, 0, 0, 0});
  auto shr1 = [](Limbs x) {
    for (int i = 0; i < 4; ++i) x[i] = (x[i] >> 1) | (i < 3 ? x[i + 1] << 63 : 0);
    return x;
  };
  const Limbs half = shr1(r_minus_1);
  const Fr minus_one = -Fr::one();
  Fr nqr = Fr::one() + Fr::one();
  while (!(nqr.pow(half) == minus_one)) nqr = nqr + Fr::one();
  Limbs t = r_minus_1;
  uint32_t s = 0;
  while ((t[0] & 1) == 0) {
    t = shr1(t);
    ++s;
  }
  if (log_n > s) throw std::invalid_argument("domain larger than the field's 2-adicity");
  Fr w = nqr.pow(t);
  for (uint32_t i = log_n; i < s; ++i) w = w * w;
  return w;
}

uint32_t log2_exact(size_t n) {
  uint32_t k = 0;
  while ((size_t{1} << k) < n) ++k;
  return k;
}

// In-place radix-2 Cooley–Tukey: x[i] := Σ_j x[j]·w^(ij), natural order in and out.
void fft(std::vector<Fr>& x, const Fr& w) {
  const size_t n = x.size();
  for (size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    Fr wl = w;
    for (size_t k = len; k < n; k <<= 1) wl = wl * wl;  // a primitive len-th root
    for (size_t i = 0; i < n; i += len) {
      Fr wj = Fr::one();
      for (size_t j = 0; j < len / 2; ++j) {
        const Fr u = x[i + j], v = x[i + j + len / 2] * wj;
        x[i + j] = u + v;
        x[i + j + len / 2] = u - v;
        wj = wj * wl;
      }
    }
  }
}

// Evaluations on the domain -> evaluations on the odd coset g·ω^i.
void to_odd_coset(std::vector<Fr>& x, const Fr& w, const Fr& g) {
  fft(x, w.inverse());
  const Fr n_inv = Fr::from_int({x.size(), 0, 0, 0}).inverse();
  Fr gi = n_inv;
  for (Fr& v : x) {
    v = v * gi;
    gi = gi * g;
  }
  fft(x, w);
}

std::vector<Limbs> h_evaluations(const ProvingKey& key, const Synthesized& s) {
  const size_t n = key.domain_size;
  const uint32_t log_n = log2_exact(n);
  const Fr w = root_of_unity(log_n), g = root_of_unity(log_n + 1);
  std::vector<Fr> a = s.a, b = s.b, c = s.c;
  a.resize(n);
  b.resize(n);
  if (c.empty()) {
    c.resize(n);
    for (size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
  }
  c.resize(n);
  to_odd_coset(a, w, g);
  to_odd_coset(b, w, g);
  to_odd_coset(c, w, g);
  std::vector<Limbs> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = (a[i] * b[i] - c[i]).to_int();
  return h;
}

bool get(const uint8_t*& p, Fq& x) {
  const Limbs v = from_bytes_le(p);
  p += 32;
  x = Fq::from_int(v);
  return !geq(v, FqParams::modulus);
}

bool all_zero(const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

void put(uint8_t*& p, const Fq& x) {
  to_bytes_le(x.to_int(), p);
  p += 32;
}

}  // namespace

Synthesized synthesize(const ProvingKey& key, std::vector<Limbs> witness) {
  Synthesized s;
  s.a.assign(key.domain_size, Fr::zero());
  s.b.assign(key.domain_size, Fr::zero());
  for (const Coefficient& e : key.coefficients) {
    // value is c·R² (Montgomery form of c·R); times the standard-form w: c·w in Montgomery form.
    const Fr term = e.value * Fr::from_mont(witness[e.wire]);
    std::vector<Fr>& row = e.matrix == 0 ? s.a : s.b;
    row[e.row] = row[e.row] + term;
  }
  s.witness = std::move(witness);
  return s;
}

Proof prove(const ProvingKey& key, const Synthesized& s, const Limbs& r, const Limbs& s_rand) {
  const std::span<const Limbs> w(s.witness);
  const std::vector<Limbs> h = h_evaluations(key, s);
  const G1 delta1 = G1::from(key.delta1);

  const G1 pi_a = G1::from(key.alpha1) + msm<Fq>(key.a, w) + mul(delta1, r);
  const G2 pi_b = G2::from(key.beta2) + msm<Fq2>(key.b2, w) + mul(G2::from(key.delta2), s_rand);
  const G1 b1 = G1::from(key.beta1) + msm<Fq>(key.b1, w) + mul(delta1, s_rand);
  const Limbs rs = (Fr::from_int(r) * Fr::from_int(s_rand)).to_int();
  const G1 minus_rs_delta1 = mul(delta1, (-Fr::from_int(rs)).to_int());
  const G1 pi_c = msm<Fq>(key.c, w.subspan(key.n_public + 1)) + msm<Fq>(key.h, h) + mul(pi_a, s_rand) + mul(b1, r) +
                  minus_rs_delta1;
  return {pi_a.to_affine(), pi_c.to_affine(), pi_b.to_affine()};
}

std::array<uint8_t, 256> encode(const Proof& p) {
  std::array<uint8_t, 256> out{};  // zero: the encoding of a point at infinity
  uint8_t* q = out.data();
  if (!p.a.infinity) {
    put(q, p.a.x);
    put(q, p.a.y);
  }
  q = out.data() + 64;
  if (!p.b.infinity) {
    put(q, p.b.x.c0);
    put(q, p.b.x.c1);
    put(q, p.b.y.c0);
    put(q, p.b.y.c1);
  }
  q = out.data() + 192;
  if (!p.c.infinity) {
    put(q, p.c.x);
    put(q, p.c.y);
  }
  return out;
}

bool decode(const uint8_t* bytes, Proof& out) {
  const uint8_t* p = bytes;
  out = {};
  if (!all_zero(p, 64)) {
    out.a.infinity = false;
    if (!get(p, out.a.x) || !get(p, out.a.y)) return false;
  }
  p = bytes + 64;
  if (!all_zero(p, 128)) {
    out.b.infinity = false;
    if (!get(p, out.b.x.c0) || !get(p, out.b.x.c1) || !get(p, out.b.y.c0) || !get(p, out.b.y.c1)) return false;
  }
  p = bytes + 192;
  if (!all_zero(p, 64)) {
    out.c.infinity = false;
    if (!get(p, out.c.x) || !get(p, out.c.y)) return false;
  }
  return on_curve(out.a) && on_curve(out.c) && on_curve_in_subgroup(out.b);
}

bool verify(const ProvingKey& key, const Proof& proof, std::span<const Limbs> public_inputs) {
  if (public_inputs.size() != key.n_public) return false;
  G1 l = G1::from(key.ic[0]);
  for (size_t i = 0; i < public_inputs.size(); ++i) {
    if (geq(public_inputs[i], FrParams::modulus)) return false;
    l = l + mul(G1::from(key.ic[i + 1]), public_inputs[i]);
  }
  Affine<Fq> minus_a = proof.a;
  minus_a.y = -minus_a.y;
  const std::pair<Affine<Fq>, Affine<Fq2>> pairs[] = {
      {minus_a, proof.b}, {key.alpha1, key.beta2}, {l.to_affine(), key.gamma2}, {proof.c, key.delta2}};
  return pairing_product_is_one(pairs);
}

}  // namespace ref
