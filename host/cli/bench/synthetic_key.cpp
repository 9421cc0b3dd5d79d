#include "bench/synthetic_key.hpp"

#include "bench/fixed_base_table.hpp"

#include "core/ec/batch_normalize.hpp"
#include "core/ec/encoding.hpp"
#include "core/ff/fp_batch.hpp"
#include "core/formats/zkey.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"
#include "core/util/thread_pool.hpp"

#include <array>
#include <chrono>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>

namespace zkp::cli::bench {

namespace {

// Points per parallel_for chunk: enough that one batch inversion per chunk is noise beside
// the chunk's products (32 mixed additions each).
constexpr std::size_t kPointGrain = 256;
constexpr uint32_t kPublic = 1;                // x_0
constexpr uint32_t kPublicRows = kPublic + 1;  // snarkjs's rows for wire 0 and each public wire
constexpr uint32_t kZkeyVersion = 1;
constexpr uint32_t kSectionCount = 9;  // header .. h; no contributions section
constexpr uint32_t kMatrixA = 0, kMatrixB = 1;

// Little-endian appends into the image and the section framing of snarkjs's binfile
// (u32 id, u64 length, body).
class Image {
 public:
  void put(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
  }
  void u32(uint32_t v) { put(&v, sizeof v); }
  template <std::size_t N>
  void bytes(const std::array<uint8_t, N>& a) { put(a.data(), a.size()); }
  void begin(ZkeySection id) {
    u32(static_cast<uint32_t>(id));
    const uint64_t placeholder = 0;
    put(&placeholder, sizeof placeholder);
    section_start_ = bytes_.size();
  }
  void end() {
    const uint64_t length = bytes_.size() - section_start_;
    std::memcpy(bytes_.data() + section_start_ - sizeof length, &length, sizeof length);
  }
  // Grows the image by n bytes and returns where they start.
  std::size_t reserve(std::size_t n) {
    bytes_.resize(bytes_.size() + n);
    return bytes_.size() - n;
  }
  std::byte* at(std::size_t offset) { return bytes_.data() + offset; }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
  std::size_t section_start_ = 0;
};

// [k_i]G for every scalar, Montgomery-encoded affine (the zkey's point layout), on all threads.
template <CurveParams C>
void put_points(Image& image, std::span<const typename C::Scalar> scalars, const FixedBaseTable<C>& table,
                ThreadPool& pool) {
  constexpr std::size_t kBytes = kAffineBytes<C>;
  const std::size_t base = image.reserve(scalars.size() * kBytes);
  pool.parallel_for(scalars.size(), kPointGrain, [&](std::size_t i0, std::size_t i1) {
    std::vector<Jacobian<C>> jacobian(i1 - i0);
    std::vector<Affine<C>> affine(i1 - i0);
    for (std::size_t i = i0; i < i1; ++i) jacobian[i - i0] = table.mul(scalars[i]);
    batch_to_affine<C>(jacobian, affine);
    for (std::size_t i = i0; i < i1; ++i) {
      auto* out = reinterpret_cast<uint8_t*>(image.at(base + i * kBytes));
      encode_affine_mont<C>(affine[i - i0], std::span<uint8_t, kBytes>(out, kBytes));
    }
  });
}

template <CurveParams C>
void put_point(Image& image, const typename C::Scalar& k, const FixedBaseTable<C>& table, ThreadPool& pool) {
  put_points<C>(image, std::span<const typename C::Scalar>(&k, 1), table, pool);
}

// L_j(tau) on the N-point domain for the points p_j = first·step^j, j < count:
// (tau^N − 1)/N · p_j/(tau − p_j), one batch inversion.
template <class Fr>
std::vector<Fr> lagrange_at(const Fr& tau, uint64_t domain_points, const Fr& first, const Fr& step,
                            std::size_t count) {
  const Fr scale = (tau.pow(domain_points) - Fr::one()) * Fr::from_u64(domain_points).inverse();
  std::vector<Fr> point(count), denominator(count);
  Fr p = first;
  for (std::size_t j = 0; j < count; ++j, p = p * step) {
    point[j] = p;
    denominator[j] = tau - p;
  }
  batch_inverse(std::span<Fr>(denominator));
  for (std::size_t j = 0; j < count; ++j) point[j] = scale * point[j] * denominator[j];
  return point;
}

template <class Fr>
Fr nonzero_random(std::mt19937_64& rng) {
  for (;;) {
    const Fr x = Fr::random(rng);
    if (!x.is_zero()) return x;
  }
}

template <class Engine>
SyntheticKey generate(uint32_t log2, ThreadPool& pool) {
  using Fr = typename Engine::Fr;
  using Fq = typename Engine::Fq;
  using G1 = typename Engine::G1;
  using G2 = typename Engine::G2;
  const uint32_t n = uint32_t{1} << log2;
  const uint32_t m = n - kPublicRows;
  const uint32_t n_vars = m + kPublic + 1;

  std::mt19937_64 rng(kSyntheticSeed);
  const Fr tau = nonzero_random<Fr>(rng), alpha = nonzero_random<Fr>(rng), beta = nonzero_random<Fr>(rng),
           gamma = nonzero_random<Fr>(rng), delta = nonzero_random<Fr>(rng);
  // tau on the 2n-domain would make the Lagrange values 0/0 (2n of the r values: negligible).
  if (tau.pow(uint64_t{2} * n).is_one()) throw std::runtime_error("synthetic key: tau fell on the domain; change the seed");

  const Fr omega = Fr::root_of_unity(log2);
  const std::vector<Fr> l = lagrange_at<Fr>(tau, n, Fr::one(), omega, n);
  const Fr g = Fr::root_of_unity(log2 + 1);  // the odd coset's shift, as the prover's
  const Fr delta_inv = delta.inverse(), gamma_inv = gamma.inverse();
  std::vector<Fr> h = lagrange_at<Fr>(tau, uint64_t{2} * n, g, g * g, n);
  for (Fr& x : h) x = x * delta_inv;

  // The QAP at tau, per wire (see the header for the rows).
  std::vector<Fr> a(n_vars, Fr::zero()), b(n_vars, Fr::zero()), c(n_vars, Fr::zero());
  for (uint32_t j = 0; j < m; ++j) {
    a[j + 1] = a[j + 1] + l[j];
    b[j + 1] = b[j + 1] + l[j];
    c[j + 2] = c[j + 2] + l[j];
  }
  for (uint32_t k = 0; k < kPublicRows; ++k) a[k] = a[k] + l[m + k];
  std::vector<Fr> ic(kPublicRows), private_c(n_vars - kPublicRows);
  for (uint32_t w = 0; w < n_vars; ++w) {
    const Fr mixed = beta * a[w] + alpha * b[w] + c[w];
    if (w < kPublicRows) ic[w] = mixed * gamma_inv;
    else private_c[w - kPublicRows] = mixed * delta_inv;
  }

  const FixedBaseTable<G1> g1(Affine<G1>::generator());
  const FixedBaseTable<G2> g2(Affine<G2>::generator());
  Image image;
  image.put("zkey", 4);
  image.u32(kZkeyVersion);
  image.u32(kSectionCount);
  image.begin(ZkeySection::header);
  image.u32(kGroth16ProtocolId);
  image.end();
  image.begin(ZkeySection::groth16_header);
  std::array<uint8_t, Fq::kBytes> q{};
  Fq::kModulus.to_le_bytes(q);
  std::array<uint8_t, Fr::kBytes> r{};
  Fr::kModulus.to_le_bytes(r);
  image.u32(Fq::kBytes);
  image.bytes(q);
  image.u32(Fr::kBytes);
  image.bytes(r);
  image.u32(n_vars);
  image.u32(kPublic);
  image.u32(n);
  put_point<G1>(image, alpha, g1, pool);
  put_point<G1>(image, beta, g1, pool);
  put_point<G2>(image, beta, g2, pool);
  put_point<G2>(image, gamma, g2, pool);
  put_point<G1>(image, delta, g1, pool);
  put_point<G2>(image, delta, g2, pool);
  image.end();
  image.begin(ZkeySection::ic);
  put_points<G1>(image, ic, g1, pool);
  image.end();

  // Every coefficient is 1, stored as 1·R² mod r (zkey.hpp, ZkeyCoefficient).
  image.begin(ZkeySection::coefficients);
  std::array<uint8_t, Fr::kBytes> one{};
  Fr::kR2.to_le_bytes(one);
  image.u32(2 * m + kPublicRows);
  const auto entry = [&](uint32_t matrix, uint32_t row, uint32_t wire) {
    image.u32(matrix);
    image.u32(row);
    image.u32(wire);
    image.bytes(one);
  };
  for (uint32_t j = 0; j < m; ++j) entry(kMatrixA, j, j + 1);
  for (uint32_t k = 0; k < kPublicRows; ++k) entry(kMatrixA, m + k, k);
  for (uint32_t j = 0; j < m; ++j) entry(kMatrixB, j, j + 1);
  image.end();

  const std::pair<ZkeySection, const std::vector<Fr>*> g1_sections[] = {{ZkeySection::a, &a}, {ZkeySection::b1, &b}};
  for (const auto& [id, scalars] : g1_sections) {
    image.begin(id);
    put_points<G1>(image, *scalars, g1, pool);
    image.end();
  }
  image.begin(ZkeySection::b2);
  put_points<G2>(image, b, g2, pool);
  image.end();
  image.begin(ZkeySection::c);
  put_points<G1>(image, private_c, g1, pool);
  image.end();
  image.begin(ZkeySection::h);
  put_points<G1>(image, h, g1, pool);
  image.end();

  SyntheticKey key;
  key.zkey = image.take();
  key.assignment.resize(std::size_t{n_vars} * Fr::kBytes);
  Fr x = Fr::from_u64(kSyntheticChainStart);
  const auto put_value = [&](uint32_t wire, const Fr& v) {
    v.to_bytes(std::span<uint8_t, Fr::kBytes>(reinterpret_cast<uint8_t*>(key.assignment.data()) + wire * Fr::kBytes,
                                              Fr::kBytes));
  };
  put_value(0, Fr::one());
  for (uint32_t w = 1; w < n_vars; ++w, x = x.square()) put_value(w, x);
  key.constraints = m;
  key.n_vars = n_vars;
  key.domain_size = n;
  return key;
}

}  // namespace

SyntheticKey make_synthetic_key(const SyntheticSpec& spec, unsigned threads) {
  const auto start = std::chrono::steady_clock::now();
  ThreadPool pool(threads);
  SyntheticKey key = spec.curve == SyntheticCurve::bn254 ? generate<bn254::Engine>(spec.log2, pool)
                                                         : generate<bls12_381::Engine>(spec.log2, pool);
  key.threads = pool.size();
  key.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return key;
}

}  // namespace zkp::cli::bench
