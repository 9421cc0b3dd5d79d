// Density bitmaps: which variables of a range a bellperson query holds (zkp_synthesized_t's
// a_aux_density, b_input_density, b_aux_density; bellperson's DensityTracker). Bit i of word
// i/64, LSB first, for variable i; bits at or past bit_len are ignored. A query's bases are
// the variables whose bit is set, in order, so an MSM against it takes the scalars of those
// variables: gather() packs them.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/util/thread_pool.hpp"

namespace zkp::bellperson {

class Density {
 public:
  // Every bit set (a query that holds every variable of its range).
  static Density full(std::uint64_t bit_len) { return Density(nullptr, bit_len); }
  // `words` holds at least ceil(bit_len / 64) words (the caller checked), owned elsewhere.
  Density(const std::uint64_t* words, std::uint64_t bit_len) : words_(words), bit_len_(bit_len) {}

  static constexpr std::uint64_t words_for(std::uint64_t bits) { return (bits + 63) / 64; }

  std::uint64_t bit_len() const { return bit_len_; }
  bool is_full() const { return words_ == nullptr; }
  bool test(std::uint64_t i) const { return is_full() || ((words_[i / 64] >> (i % 64)) & 1u) != 0; }

  // Word w with the bits at or past bit_len cleared.
  std::uint64_t word(std::uint64_t w) const {
    const std::uint64_t valid = bit_len_ - w * 64;
    const std::uint64_t mask = valid >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid) - 1;
    return (is_full() ? ~std::uint64_t{0} : words_[w]) & mask;
  }

  std::uint64_t popcount() const {
    if (is_full()) return bit_len_;
    std::uint64_t n = 0;
    for (std::uint64_t w = 0; w < words_for(bit_len_); ++w) n += static_cast<std::uint64_t>(std::popcount(word(w)));
    return n;
  }

 private:
  const std::uint64_t* words_;
  std::uint64_t bit_len_;
};

// Words per gather task: 2^12 words = 2^18 variables, enough to amortize a hand-off.
inline constexpr std::uint64_t kGatherWordsPerTask = std::uint64_t{1} << 12;

// out[k] = in[i] for the k-th set bit i of `d` (in.size() == d.bit_len(), out.size() == its
// popcount). Parallel: each task counts its words' bits, then writes at its prefix offset.
template <class T>
void gather(std::span<const T> in, const Density& d, std::span<T> out, ThreadPool& pool) {
  if (in.size() != d.bit_len()) {
    throw std::invalid_argument("gather: " + std::to_string(in.size()) + " values for a bitmap of " +
                                std::to_string(d.bit_len()) + " bits");
  }
  const std::uint64_t words = Density::words_for(d.bit_len());
  const std::uint64_t tasks = (words + kGatherWordsPerTask - 1) / kGatherWordsPerTask;
  std::vector<std::uint64_t> offset(tasks + 1, 0);
  pool.parallel_for(tasks, 1, [&](std::size_t t0, std::size_t t1) {
    for (std::size_t t = t0; t < t1; ++t) {
      const std::uint64_t w1 = std::min(words, (t + 1) * kGatherWordsPerTask);
      std::uint64_t n = 0;
      for (std::uint64_t w = t * kGatherWordsPerTask; w < w1; ++w) n += static_cast<std::uint64_t>(std::popcount(d.word(w)));
      offset[t + 1] = n;
    }
  });
  for (std::uint64_t t = 0; t < tasks; ++t) offset[t + 1] += offset[t];
  if (offset[tasks] != out.size()) {
    throw std::invalid_argument("gather: the bitmap has " + std::to_string(offset[tasks]) + " bits set for " +
                                std::to_string(out.size()) + " outputs");
  }
  pool.parallel_for(tasks, 1, [&](std::size_t t0, std::size_t t1) {
    for (std::size_t t = t0; t < t1; ++t) {
      std::uint64_t k = offset[t];
      const std::uint64_t w1 = std::min(words, (t + 1) * kGatherWordsPerTask);
      for (std::uint64_t w = t * kGatherWordsPerTask; w < w1; ++w) {
        for (std::uint64_t bits = d.word(w); bits != 0; bits &= bits - 1) {
          out[k++] = in[w * 64 + static_cast<std::uint64_t>(std::countr_zero(bits))];
        }
      }
    }
  });
}

}  // namespace zkp::bellperson
