// A synthetic bellperson parameter file and partition of any size, with the shape of Filecoin's
// PoRep C2 partition by default (BELLPERSON.md: 2^27 domain, 130,278,869 rows, 328 inputs,
// a_aux density 99.6%, b_aux 25.4%, one input in B), built in memory on every thread of a pool
// so that a 44 GiB file takes seconds, not hours. For benchmarks only: the points are distinct
// multiples k·G, not a setup's, so the proofs do not verify (run with verify=false).
//
//   SyntheticShape shape = SyntheticShape::porep(27);
//   SyntheticDensities densities(shape, pool);                               // the queries' variables
//   std::vector<std::byte> params = synthetic_params(shape, densities, pool); // their popcounts
//   SyntheticPartition part(shape, ScalarMix::zeros_ones_90, pool);          // a/b/c, assignment
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/bellperson/density.hpp"
#include "core/ec/batch_normalize.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/ec/zcash_encoding.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::test {

struct SyntheticShape {
  std::uint64_t log_m = 0;
  std::uint64_t rows = 0;        // abc_size: constraints plus the input rows
  std::uint64_t num_inputs = 0;  // the constant one included
  std::uint64_t num_aux = 0;
  double a_aux_fraction = 1, b_aux_fraction = 1;
  std::uint64_t b_inputs = 1;  // inputs in B

  // PoRep 32 GiB's proportions scaled to a domain of 2^log_m (exact at 27).
  static SyntheticShape porep(std::uint64_t log_m) {
    constexpr double kRows = 130278869, kDomain = 134217728, kAux = 130169893;
    const double scale = static_cast<double>(std::uint64_t{1} << log_m) / kDomain;
    SyntheticShape s;
    s.log_m = log_m;
    s.rows = static_cast<std::uint64_t>(kRows * scale);
    s.num_inputs = 328;
    s.num_aux = static_cast<std::uint64_t>(kAux * scale);
    s.a_aux_fraction = 129753292.0 / kAux;
    s.b_aux_fraction = 33112281.0 / kAux;
    s.b_inputs = 1;
    return s;
  }
};

// How the assignment's scalars are drawn: the MSM cost depends on it (zeros and ones are free).
enum class ScalarMix { random, zeros_ones_50, zeros_ones_90 };

inline const char* to_string(ScalarMix m) {
  return m == ScalarMix::random ? "random" : m == ScalarMix::zeros_ones_50 ? "50% 0/1" : "90% 0/1";
}

// The circuit's structure: which variables each query holds (random bitmaps of the shape's
// fractions). The parameter file is made from these, and every partition uses them.
struct SyntheticDensities {
  std::vector<std::uint64_t> a_aux, b_input, b_aux;
  std::uint64_t a_aux_popcount = 0, b_input_popcount = 0, b_aux_popcount = 0;

  SyntheticDensities(const SyntheticShape& s, ThreadPool& pool) {
    a_aux = bitmap(s.num_aux, s.a_aux_fraction, 1, pool);
    b_aux = bitmap(s.num_aux, s.b_aux_fraction, 2, pool);
    b_input.assign(bellperson::Density::words_for(s.num_inputs), 0);
    for (std::uint64_t i = 0; i < std::min(s.b_inputs, s.num_inputs); ++i) b_input[i / 64] |= std::uint64_t{1} << (i % 64);
    a_aux_popcount = bellperson::Density(a_aux.data(), s.num_aux).popcount();
    b_aux_popcount = bellperson::Density(b_aux.data(), s.num_aux).popcount();
    b_input_popcount = bellperson::Density(b_input.data(), s.num_inputs).popcount();
  }

 private:
  static std::vector<std::uint64_t> bitmap(std::uint64_t bits, double fraction, std::uint64_t seed, ThreadPool& pool) {
    std::vector<std::uint64_t> words(bellperson::Density::words_for(bits), 0);
    const auto threshold = static_cast<std::uint64_t>(fraction * 18446744073709551615.0);
    pool.parallel_for(words.size(), 1 << 10, [&](std::size_t w0, std::size_t w1) {
      std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + w0);
      for (std::size_t w = w0; w < w1; ++w) {
        for (int bit = 0; bit < 64; ++bit) {
          if (rng() <= threshold) words[w] |= std::uint64_t{1} << bit;
        }
      }
    });
    return words;
  }
};

// One partition's caller-side buffers, as a bellperson caller holds them (Montgomery form):
// a, b, c over the rows with every row satisfied (c = a·b), the assignment in `mix`.
struct SyntheticPartition {
  using Fr = bls12_381::Fr;
  std::vector<Fr> a, b, c, inputs, aux;

  SyntheticPartition(const SyntheticShape& s, ScalarMix mix, ThreadPool& pool)
      : a(s.rows), b(s.rows), c(s.rows), inputs(s.num_inputs), aux(s.num_aux) {
    fill(a, ScalarMix::random, 3, pool);
    fill(b, ScalarMix::random, 4, pool);
    pool.parallel_for(c.size(), 1 << 14, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) c[i] = a[i] * b[i];  // every row satisfied
    });
    fill(inputs, ScalarMix::random, 5, pool);
    inputs[0] = Fr::one();
    fill(aux, mix, 6, pool);
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 16;

  static void fill(std::vector<Fr>& v, ScalarMix mix, std::uint64_t seed, ThreadPool& pool) {
    const int special = mix == ScalarMix::random ? 0 : mix == ScalarMix::zeros_ones_50 ? 50 : 90;
    pool.parallel_for((v.size() + kChunk - 1) / kChunk, 1, [&](std::size_t k0, std::size_t k1) {
      for (std::size_t k = k0; k < k1; ++k) {
        std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + k);
        for (std::size_t i = k * kChunk; i < std::min(v.size(), (k + 1) * kChunk); ++i) {
          const int r = static_cast<int>(rng() % 100);
          v[i] = r < special / 2 ? Fr() : r < special ? Fr::one() : Fr::random(rng);
        }
      }
    });
  }
};

namespace detail {

// `count` distinct points (first + i)·G, i < count, zcash-encoded uncompressed at `out`.
template <CurveParams C>
void put_synthetic_points(std::uint8_t* out, std::uint64_t count, std::uint64_t first, ThreadPool& pool) {
  constexpr std::size_t kBatch = 4096;
  constexpr std::size_t kBytes = zcash::kUncompressedBytes<C>;
  const Affine<C> g = Affine<C>::generator();
  pool.parallel_for((count + kBatch - 1) / kBatch, 1, [&](std::size_t b0, std::size_t b1) {
    std::vector<Jacobian<C>> jac(kBatch);
    std::vector<Affine<C>> aff(kBatch);
    for (std::size_t b = b0; b < b1; ++b) {
      const std::uint64_t i0 = b * kBatch, n = std::min<std::uint64_t>(kBatch, count - i0);
      Jacobian<C> p = Jacobian<C>::generator() * C::Scalar::from_u64(first + i0);
      for (std::uint64_t i = 0; i < n; ++i) jac[i] = p, p = p.add_mixed(g);
      batch_to_affine<C>(std::span<const Jacobian<C>>(jac.data(), n), std::span<Affine<C>>(aff.data(), n));
      for (std::uint64_t i = 0; i < n; ++i) {
        zcash::encode_uncompressed<C>(aff[i], std::span<std::uint8_t, kBytes>(out + (i0 + i) * kBytes, kBytes));
      }
    }
  });
}

inline void put_u32_be(std::span<std::byte> out, std::size_t at, std::uint64_t v) {
  if (v > 0xffffffffu) throw std::invalid_argument("synthetic params: a count past u32");
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<std::byte>(v >> (24 - 8 * i));
}

}  // namespace detail

// The parameter file's sections for these densities: vk, ic, h (m − 1), l, a, b_g1, b_g2.
struct SyntheticLayout {
  struct Section {
    std::uint64_t count;
    bool g2;
  };
  // vk: alpha, beta (G1), beta, gamma (G2), delta (G1), delta (G2); then the counted sections.
  std::array<Section, 6> vk = {{{1, false}, {1, false}, {1, true}, {1, true}, {1, false}, {1, true}}};
  std::array<Section, 6> counted;
  std::size_t size = 0;

  SyntheticLayout(const SyntheticShape& s, const SyntheticDensities& part) {
    constexpr std::size_t k1 = zcash::kUncompressedBytes<bls12_381::G1>, k2 = zcash::kUncompressedBytes<bls12_381::G2>;
    const std::uint64_t m = std::uint64_t{1} << s.log_m;
    const std::uint64_t a_count = s.num_inputs + part.a_aux_popcount;
    const std::uint64_t b_count = part.b_input_popcount + part.b_aux_popcount;
    counted = {{{s.num_inputs, false}, {m - 1, false}, {s.num_aux, false}, {a_count, false}, {b_count, false}, {b_count, true}}};
    for (const Section& v : vk) size += v.g2 ? k2 : k1;
    for (const Section& c : counted) size += 4 + c.count * (c.g2 ? k2 : k1);
  }
};

// Writes the parameter file into `out` (exactly SyntheticLayout::size bytes: memory, or a
// mapped file for the sizes that do not fit twice in RAM).
inline void write_synthetic_params(const SyntheticShape& s, const SyntheticDensities& part, std::span<std::byte> out,
                                   ThreadPool& pool) {
  using G1 = bls12_381::G1;
  using G2 = bls12_381::G2;
  using Section = SyntheticLayout::Section;
  constexpr std::size_t k1 = zcash::kUncompressedBytes<G1>, k2 = zcash::kUncompressedBytes<G2>;
  const SyntheticLayout layout(s, part);
  if (out.size() != layout.size) throw std::invalid_argument("synthetic params: the buffer is not the file's size");
  std::size_t at = 0;
  std::uint64_t next = 1;  // the multiple of G where the next section starts: every point distinct
  const auto put = [&](const Section& sec) {
    auto* p = reinterpret_cast<std::uint8_t*>(out.data() + at);
    if (sec.g2) detail::put_synthetic_points<G2>(p, sec.count, next, pool);
    else detail::put_synthetic_points<G1>(p, sec.count, next, pool);
    at += sec.count * (sec.g2 ? k2 : k1);
    next += sec.count;
  };
  for (const Section& v : layout.vk) put(v);
  for (const Section& c : layout.counted) {
    detail::put_u32_be(out, at, c.count);
    at += 4;
    put(c);
  }
}

inline std::vector<std::byte> synthetic_params(const SyntheticShape& s, const SyntheticDensities& part,
                                               ThreadPool& pool) {
  std::vector<std::byte> out(SyntheticLayout(s, part).size);
  write_synthetic_params(s, part, out, pool);
  return out;
}

}  // namespace zkp::test
