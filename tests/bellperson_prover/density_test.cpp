#include "core/bellperson/density.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace zkp::bellperson {
namespace {

TEST(BellpersonDensity, PopcountIgnoresBitsPastBitLen) {
  const std::vector<std::uint64_t> words = {~std::uint64_t{0}, ~std::uint64_t{0}};
  EXPECT_EQ(Density(words.data(), 70).popcount(), 70u);
  EXPECT_EQ(Density(words.data(), 64).popcount(), 64u);
  EXPECT_EQ(Density(words.data(), 0).popcount(), 0u);
  EXPECT_EQ(Density::full(123).popcount(), 123u);
}

TEST(BellpersonDensity, GatherMatchesANaiveScanOnEveryShape) {
  std::mt19937_64 rng(3);
  for (std::uint64_t bits : {0u, 1u, 63u, 64u, 65u, 1000u, 300000u}) {  // 300000: several tasks
    for (int fill : {0, 10, 50, 100}) {
      std::vector<std::uint64_t> words(Density::words_for(bits) + 1);
      for (auto& w : words) {
        w = 0;
        for (int b = 0; b < 64; ++b) {
          if (static_cast<int>(rng() % 100) < fill) w |= std::uint64_t{1} << b;
        }
      }
      const Density d(words.data(), bits);
      std::vector<std::uint32_t> in(bits);
      for (std::uint64_t i = 0; i < bits; ++i) in[i] = static_cast<std::uint32_t>(i * 7 + 1);
      std::vector<std::uint32_t> naive;
      for (std::uint64_t i = 0; i < bits; ++i) {
        if ((words[i / 64] >> (i % 64)) & 1u) naive.push_back(in[i]);
      }
      ASSERT_EQ(d.popcount(), naive.size());
      std::vector<std::uint32_t> out(naive.size());
      ThreadPool pool(3);
      gather<std::uint32_t>(in, d, out, pool);
      EXPECT_EQ(out, naive) << bits << " bits, " << fill << "% set";
    }
  }
}

TEST(BellpersonDensity, GatherRefusesMismatchedSizes) {
  ThreadPool pool(1);
  const std::vector<std::uint64_t> words = {0b1011};
  const Density d(words.data(), 4);
  std::vector<int> in(4), out(2);
  EXPECT_THROW(gather<int>(in, d, out, pool), std::invalid_argument);  // 3 bits set
  std::vector<int> short_in(3), out3(3);
  EXPECT_THROW(gather<int>(short_in, d, out3, pool), std::invalid_argument);
}

}  // namespace
}  // namespace zkp::bellperson
