// The window table of the MSM.
#include <array>
#include <cstddef>

#include "core/msm/msm.hpp"

namespace zkp::msm {

// Smallest n (scalars other than 0 and ±1) from which each c is used. From bench_msm's
// BM_WindowSweep (BN254 G1, uniform scalars, one thread, median of 3, on a quiet 16-core
// Xeon; the 2-core target was too loaded to sweep): best c, runners-up within 5% in brackets:
//   n    2^8    2^10   2^12   2^14   2^16           2^18     2^20 (one run)
//   c    7 (6)  7 = 8  9 (8)  11     13 (11 12 14)  15 (14)  16 (15)
// G2 agrees within one step (2^14: 12, 2^16: 13). Below 2^8 the table follows the cost
// model ⌈254/c⌉·(n + 3·2^(c−1)), about three additions' worth of reduction per bucket.
// The optimum is flat: one step either side costs under 5%.
unsigned window_bits_for(std::size_t n) {
  struct Step {
    std::size_t from;
    unsigned c;
  };
  static constexpr std::array<Step, 14> kTable{{
      {0, 3},
      {std::size_t{1} << 4, 4},
      {std::size_t{1} << 6, 5},
      {std::size_t{1} << 7, 6},
      {std::size_t{1} << 8, 7},
      {std::size_t{1} << 11, 8},
      {std::size_t{1} << 12, 9},
      {std::size_t{1} << 13, 10},
      {std::size_t{1} << 14, 11},
      {std::size_t{1} << 15, 12},
      {std::size_t{1} << 16, 13},
      {std::size_t{1} << 17, 14},
      {std::size_t{1} << 18, 15},
      {std::size_t{1} << 20, 16},
  }};
  unsigned c = kTable[0].c;
  for (const Step& s : kTable)
    if (n >= s.from) c = s.c;
  return c;
}

}  // namespace zkp::msm
