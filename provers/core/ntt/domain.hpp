// NttDomain<F>: the evaluation domain of size n = 2^log_n over a scalar field F and the
// tables its transforms need, computed once per size and shared read-only by every proof.
//
// Roots are ffjavascript's: ω = Fr.w[log_n] = F::root_of_unity(log_n), so evaluations, and
// therefore every intermediate and proof, match snarkjs's bit for bit.
//
// Twiddles, per butterfly stage of half-size m (m = 1, 2, 4, ..., n/2), are stored
// contiguously: stage_twiddles(m)[j] = ω_{2m}^j for j < m, where ω_{2m} = ω^(n/2m), so each
// stage reads its table front to back. The inverse transform needs no second table, because
// ω_{2m}^{−j} = −ω_{2m}^{m−j} (ω_{2m}^m = −1); see ntt.hpp. Memory: n field elements.
//
// The odd coset (where snarkjs evaluates H) is {g·ω^i}, g = coset_generator() = Fr.w[log_n + 1],
// a primitive 2n-th root of unity, so g·ω^i = ω_{2n}^{2i+1}. (For log_n equal to the field's
// two-adicity there is no 2n-th root; snarkjs then uses Fr.shift = nqr², and so does this.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/util/thread_pool.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp {

// x with its low `bits` bits reversed.
constexpr std::size_t bit_reverse(std::size_t x, std::size_t bits) {
  std::size_t r = 0;
  for (std::size_t b = 0; b < bits; ++b, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}

// The scaling that turns the bit-reversed output of an inverse DIF transform into the
// coefficients of p(g·X) (see NttDomain::coset_low): factor(pos) = g^bitrev(pos) / n =
// low[pos mod 2^low_bits] · high[pos >> low_bits], two tables of about √n entries. With g^−1
// in place of g the same scaling ends bellperson's icoset_fft (core/bellperson/h_polynomial.hpp).
template <class F>
struct CosetFactors {
  std::size_t low_bits = 0;
  std::vector<F> low, high;

  static CosetFactors make(std::size_t log_n, const F& g, const F& n_inv) {
    CosetFactors t;
    t.low_bits = log_n / 2;
    const std::size_t high_bits = log_n - t.low_bits;
    // low[l] = (g^(2^high_bits))^bitrev_L(l); high[h] = g^bitrev_H(h) / n.
    std::vector<F> g_pow_high(std::size_t{1} << high_bits);
    F x = F::one();
    for (auto& v : g_pow_high) v = x, x *= g;
    const F g_step = x;  // g^(2^high_bits)
    std::vector<F> step_pow(std::size_t{1} << t.low_bits);
    x = F::one();
    for (auto& v : step_pow) v = x, x *= g_step;
    t.low.resize(step_pow.size());
    for (std::size_t l = 0; l < t.low.size(); ++l) t.low[l] = step_pow[bit_reverse(l, t.low_bits)];
    t.high.resize(g_pow_high.size());
    for (std::size_t h = 0; h < t.high.size(); ++h) t.high[h] = g_pow_high[bit_reverse(h, high_bits)] * n_inv;
    return t;
  }
};

template <class F>
class NttDomain {
 public:
  // Sizes 2^0 .. 2^two_adicity. Throws std::invalid_argument beyond.
  // With a pool the twiddle table is built on it (see below).
  explicit NttDomain(std::size_t log_n, ThreadPool* pool = nullptr)
      : NttDomain(log_n, F::root_of_unity(check_log_n(log_n)),
                  log_n < F::two_adicity() ? F::root_of_unity(log_n + 1)
                                           : F::from_u64(F::Params::kRootOfUnityBase).square(),
                  pool) {}

  // A domain with another library's conventions: ω (a primitive 2^log_n-th root of unity) and
  // the coset generator g given. bellperson's domains (core/bellperson/domain.hpp) take ω from
  // blstrs's generator 7 and evaluate H on the coset 7·ω^i. With a pool the twiddle table is
  // built on it: n field elements, 4 GiB and ~5 s on one thread for a 2^27 PoRep domain.
  NttDomain(std::size_t log_n, const F& omega, const F& coset_generator, ThreadPool* pool = nullptr)
      : log_n_(check_log_n(log_n)),
        n_(std::size_t{1} << log_n),
        omega_(omega),
        n_inv_(F::from_u64(n_).inverse()),
        coset_generator_(coset_generator),
        coset_(CosetFactors<F>::make(log_n_, coset_generator_, n_inv_)) {
    build_twiddles(pool);
  }

  std::size_t log_n() const { return log_n_; }
  std::size_t size() const { return n_; }
  const F& omega() const { return omega_; }
  const F& n_inv() const { return n_inv_; }
  const F& coset_generator() const { return coset_generator_; }

  // ω_{2m}^j for the stage of half-size m (a power of two, m < n) and j < m.
  const F* stage_twiddles(std::size_t m) const { return twiddles_.data() + m; }

  // The factor g^i / n for the coefficient i = bitrev(pos) that sits at position pos of the
  // bit-reversed output of an inverse DIF transform: scaling by it turns that output into the
  // coefficients of p(g·X), whose DFT is p on the odd coset. With pos = high·2^L + low,
  // bitrev(pos) = bitrev_L(low)·2^(log_n − L) + bitrev_{log_n − L}(high), so the factor is
  // coset_low(low) · coset_high(high) from two tables of about √n entries.
  std::size_t coset_low_bits() const { return coset_.low_bits; }
  const F& coset_low(std::size_t low) const { return coset_.low[low]; }
  const F& coset_high(std::size_t high) const { return coset_.high[high]; }

  // Heap bytes of the tables.
  std::size_t memory_bytes() const {
    return (twiddles_.capacity() + coset_.low.capacity() + coset_.high.capacity()) * sizeof(F);
  }

 private:
  static std::size_t check_log_n(std::size_t log_n) {
    if (log_n > F::two_adicity()) {
      throw std::invalid_argument("NttDomain: size 2^" + std::to_string(log_n) +
                                  " exceeds the two-adicity of " + F::Params::kName);
    }
    return log_n;
  }

  void build_twiddles(ThreadPool* pool) {
    twiddles_.resize(n_);  // every entry written below (entry 0 unused, set for tidiness)
    twiddles_[0] = F::one();
    if (n_ == 1) return;
    // Runs body(begin, end) over [0, n): on the pool in chunks, or inline.
    const auto each = [pool](std::size_t n, const std::function<void(std::size_t, std::size_t)>& body) {
      constexpr std::size_t kGrain = std::size_t{1} << 14;
      if (pool != nullptr && n > kGrain) {
        pool->parallel_for(n, kGrain, body);
      } else {
        body(0, n);
      }
    };
    // The largest stage (m = n/2) from ω, each chunk from its own ω^begin; each smaller stage
    // keeps every other entry of the one above it.
    const std::size_t half = n_ / 2;
    each(half, [&](std::size_t begin, std::size_t end) {
      F w = omega_.pow(static_cast<std::uint64_t>(begin));
      for (std::size_t j = begin; j < end; ++j, w *= omega_) twiddles_[half + j] = w;
    });
    for (std::size_t m = half / 2; m >= 1; m /= 2) {
      each(m, [&](std::size_t begin, std::size_t end) {
        for (std::size_t j = begin; j < end; ++j) twiddles_[m + j] = twiddles_[2 * m + 2 * j];
      });
    }
  }

  std::size_t log_n_;
  std::size_t n_;
  F omega_, n_inv_, coset_generator_;
  CosetFactors<F> coset_;
  std::vector<F, UninitializedAllocator<F>> twiddles_;  // n entries: no serial zero-fill first
};

}  // namespace zkp
