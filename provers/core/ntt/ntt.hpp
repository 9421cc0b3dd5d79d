// Radix-2 number-theoretic transforms over a scalar field F, in place, multi-threaded.
//
// Two kernels, each in both directions (Forward: root ω; Inverse: root ω^{−1}, no 1/n):
//   dif: natural order in, bit-reversed order out  (Gentleman–Sande butterflies)
//   dit: bit-reversed order in, natural order out  (Cooley–Tukey butterflies)
// Composed as dif → (pointwise work on the bit-reversed spectrum) → dit they need no
// permutation at all, which is how odd_coset() runs snarkjs's iFFT → shift → FFT.
// ntt() and intt() give natural order both ways (one bit-reversal permutation each).
//
// Cache blocking: the stages whose butterflies stay inside an aligned block (2^10–2^13
// elements, block_size) run block by block, blocks in parallel: one pass over memory for all
// of them. Each larger stage is one parallel pass over the whole array. The grouping changes
// where butterflies run, never which ones or in what order per element: results are the
// same for every thread count.
//
// Inverse twiddles come from the forward table: ω_{2m}^{−j} = −ω_{2m}^{m−j} for 0 < j < m,
// and the sign is absorbed into the butterfly (see the *_butterflies functions).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/ntt/domain.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp {

enum class NttDirection { forward, inverse };

namespace ntt_detail {

// At most 2^13 elements = 256 KiB of 32-byte scalars per block: the block-local stages stay
// within a core's L2 (1–2 MiB on current x86 server cores) with room for the twiddles. At
// least 2^10, or the whole-array passes multiply; in between, small enough that every thread
// gets two blocks (2^16 on 16 threads would otherwise leave half of them idle).
inline constexpr std::size_t kMaxBlockLog = 13;
inline constexpr std::size_t kMinBlockLog = 10;
inline constexpr std::size_t kBlocksPerThread = 2;
// Fewer butterflies than this per task are not worth a thread hand-off.
inline constexpr std::size_t kGrain = std::size_t{1} << 11;

inline void check_size(std::size_t data, std::size_t domain) {
  if (data != domain) {
    throw std::invalid_argument("ntt: " + std::to_string(data) + " elements for a domain of " +
                                std::to_string(domain));
  }
}

// Butterflies of stage m for the pairs (k + j, k + j + m), j in [j0, j1), k a multiple of 2m.
template <NttDirection Dir, class F>
inline void dit_butterflies(F* a, std::size_t k, std::size_t m, std::size_t j0, std::size_t j1, const F* tw) {
  F* lo = a + k;
  F* hi = a + k + m;
  std::size_t j = j0;
  if constexpr (Dir == NttDirection::inverse) {
    if (j == 0 && j < j1) {  // ω^0 = 1
      const F u = lo[0], x = hi[0];
      lo[0] = u + x;
      hi[0] = u - x;
      ++j;
    }
    for (; j < j1; ++j) {  // t = ω^{−j}·hi = −(tw[m − j]·hi)
      const F u = lo[j], x = hi[j] * tw[m - j];
      lo[j] = u - x;
      hi[j] = u + x;
    }
  } else {
    for (; j < j1; ++j) {
      const F u = lo[j], x = hi[j] * tw[j];
      lo[j] = u + x;
      hi[j] = u - x;
    }
  }
}

template <NttDirection Dir, class F>
inline void dif_butterflies(F* a, std::size_t k, std::size_t m, std::size_t j0, std::size_t j1, const F* tw) {
  F* lo = a + k;
  F* hi = a + k + m;
  std::size_t j = j0;
  if constexpr (Dir == NttDirection::inverse) {
    if (j == 0 && j < j1) {
      const F u = lo[0], v = hi[0];
      lo[0] = u + v;
      hi[0] = u - v;
      ++j;
    }
    for (; j < j1; ++j) {  // (u − v)·ω^{−j} = (v − u)·tw[m − j]
      const F u = lo[j], v = hi[j];
      lo[j] = u + v;
      hi[j] = (v - u) * tw[m - j];
    }
  } else {
    for (; j < j1; ++j) {
      const F u = lo[j], v = hi[j];
      lo[j] = u + v;
      hi[j] = (u - v) * tw[j];
    }
  }
}

// One stage over the whole array, its n/2 butterflies split across the pool.
template <NttDirection Dir, bool Dit, class F>
void stage_parallel(std::span<F> a, const NttDomain<F>& d, std::size_t m, ThreadPool& pool) {
  const F* tw = d.stage_twiddles(m);
  pool.parallel_for(a.size() / 2, kGrain, [&](std::size_t t0, std::size_t t1) {
    // Butterfly t is pair j = t mod m of the group starting at k = 2m·(t div m).
    while (t0 < t1) {
      const std::size_t group = t0 / m, j0 = t0 % m;
      const std::size_t j1 = std::min(m, j0 + (t1 - t0));
      if constexpr (Dit) dit_butterflies<Dir>(a.data(), 2 * m * group, m, j0, j1, tw);
      else dif_butterflies<Dir>(a.data(), 2 * m * group, m, j0, j1, tw);
      t0 += j1 - j0;
    }
  });
}

// The stages m < block.size() of a DIT transform on one aligned block, smallest first.
template <NttDirection Dir, class F>
void dit_block(std::span<F> block, const NttDomain<F>& d) {
  for (std::size_t m = 1; m < block.size(); m *= 2) {
    const F* tw = d.stage_twiddles(m);
    for (std::size_t k = 0; k < block.size(); k += 2 * m) dit_butterflies<Dir>(block.data(), k, m, 0, m, tw);
  }
}

// The stages m < block.size() of a DIF transform on one aligned block, largest first.
template <NttDirection Dir, class F>
void dif_block(std::span<F> block, const NttDomain<F>& d) {
  for (std::size_t m = block.size() / 2; m >= 1; m /= 2) {
    const F* tw = d.stage_twiddles(m);
    for (std::size_t k = 0; k < block.size(); k += 2 * m) dif_butterflies<Dir>(block.data(), k, m, 0, m, tw);
  }
}

// The block size for n elements on `threads` threads: a power of two, at most n.
inline std::size_t block_size(std::size_t n, std::size_t threads) {
  std::size_t b = std::size_t{1} << kMaxBlockLog;
  while (b > (std::size_t{1} << kMinBlockLog) && n / b < kBlocksPerThread * threads) b /= 2;
  return std::min(n, b);
}

// Calls body(block) for every aligned block of `b` elements, in parallel.
template <class F, class Body>
void for_each_block(std::span<F> a, std::size_t b, ThreadPool& pool, Body&& body) {
  const std::size_t blocks = a.size() / b;
  if (blocks == 1) return body(a);
  pool.run(blocks, [&](std::size_t i) { body(a.subspan(i * b, b)); });
}

// Reverses the low `bits` bits of x eight at a time.
inline std::size_t reverse_bits(std::size_t x, std::size_t bits) {
  static constexpr auto kTable = [] {
    std::array<std::uint8_t, 256> t{};
    for (std::size_t i = 0; i < 256; ++i) t[i] = static_cast<std::uint8_t>(bit_reverse(i, 8));
    return t;
  }();
  std::uint64_t r = 0;
  for (std::size_t byte = 0; byte < sizeof(std::uint64_t); ++byte) r = (r << 8) | kTable[(x >> (8 * byte)) & 0xFF];
  return bits == 0 ? 0 : static_cast<std::size_t>(r >> (64 - bits));
}

}  // namespace ntt_detail

// Natural order in, bit-reversed order out. No 1/n for the inverse.
template <NttDirection Dir, class F>
void ntt_dif(std::span<F> a, const NttDomain<F>& d, ThreadPool& pool) {
  using namespace ntt_detail;
  check_size(a.size(), d.size());
  const std::size_t b = block_size(a.size(), pool.size());
  for (std::size_t m = a.size() / 2; m >= b; m /= 2) stage_parallel<Dir, false>(a, d, m, pool);
  for_each_block(a, b, pool, [&](std::span<F> block) { dif_block<Dir>(block, d); });
}

// Bit-reversed order in, natural order out. No 1/n for the inverse.
template <NttDirection Dir, class F>
void ntt_dit(std::span<F> a, const NttDomain<F>& d, ThreadPool& pool) {
  using namespace ntt_detail;
  check_size(a.size(), d.size());
  const std::size_t b = block_size(a.size(), pool.size());
  for_each_block(a, b, pool, [&](std::span<F> block) { dit_block<Dir>(block, d); });
  for (std::size_t m = b; m < a.size(); m *= 2) stage_parallel<Dir, true>(a, d, m, pool);
}

// Swaps a[i] and a[bitrev(i)] for every i.
template <class F>
void bit_reverse_permute(std::span<F> a, ThreadPool& pool) {
  std::size_t bits = 0;
  while ((std::size_t{1} << bits) < a.size()) ++bits;
  if ((std::size_t{1} << bits) != a.size()) throw std::invalid_argument("bit_reverse_permute: size is not a power of two");
  pool.parallel_for(a.size(), ntt_detail::kGrain, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) {
      const std::size_t j = ntt_detail::reverse_bits(i, bits);
      if (i < j) std::swap(a[i], a[j]);
    }
  });
}

// Coefficients → evaluations at ω^i, natural order both ways.
template <class F>
void ntt(std::span<F> a, const NttDomain<F>& d, ThreadPool& pool) {
  ntt_dif<NttDirection::forward>(a, d, pool);
  bit_reverse_permute(a, pool);
}

// Evaluations at ω^i → coefficients (with the 1/n), natural order both ways.
template <class F>
void intt(std::span<F> a, const NttDomain<F>& d, ThreadPool& pool) {
  ntt_dif<NttDirection::inverse>(a, d, pool);
  bit_reverse_permute(a, pool);
  const F n_inv = d.n_inv();
  pool.parallel_for(a.size(), ntt_detail::kGrain, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) a[i] *= n_inv;
  });
}

// Evaluations of a polynomial p (deg < n) at ω^i → its evaluations at g·ω^i = ω_{2n}^{2i+1}
// (g = d.coset_generator()), natural order both ways: snarkjs's ifft, multiply coefficient i
// by g^i, fft. The middle steps (the last DIF stages, the coset scaling, the first DIT stages)
// run block by block in one pass while each block is in cache.
template <class F>
void odd_coset(std::span<F> a, const NttDomain<F>& d, ThreadPool& pool) {
  using namespace ntt_detail;
  constexpr auto inv = NttDirection::inverse;
  constexpr auto fwd = NttDirection::forward;
  check_size(a.size(), d.size());
  const std::size_t b = block_size(a.size(), pool.size());
  for (std::size_t m = a.size() / 2; m >= b; m /= 2) stage_parallel<inv, false>(a, d, m, pool);
  const std::size_t low_bits = d.coset_low_bits();
  const std::size_t low_mask = (std::size_t{1} << low_bits) - 1;
  for_each_block(a, b, pool, [&](std::span<F> block) {
    dif_block<inv>(block, d);
    const std::size_t base = static_cast<std::size_t>(block.data() - a.data());
    for (std::size_t i = 0; i < block.size(); ++i) {
      const std::size_t pos = base + i;
      block[i] *= d.coset_low(pos & low_mask) * d.coset_high(pos >> low_bits);
    }
    dit_block<fwd>(block, d);
  });
  for (std::size_t m = b; m < a.size(); m *= 2) stage_parallel<fwd, true>(a, d, m, pool);
}

}  // namespace zkp
