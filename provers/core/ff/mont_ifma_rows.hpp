// The two passes of a batch of affine additions on the IFMA lanes (mont_ifma.hpp's
// prefix_rows_* and add_rows_*), written once over the lane arithmetic L (mont_ifma_lanes.hpp)
// and a field's loads and stores IO. Internal to the kernel files, like mont_ifma_lanes.hpp.
//
// IO provides, all ZKP_IFMA_FN static:
//   F, F2, G1Job, G2Job                  the field, its square extension and the job records;
//   Limbs load(const F*), store(F*, L)   eight consecutive F;
//   Limbs2 load2(const F2*)              eight consecutive F2;
//   load_g1(jobs, lanes, x1, y1, x2, y2), store_g1(jobs, lanes, x3, y3)
//   load_g2(jobs, lanes, coord) (0: x1, 1: y1, 2: x2, 3: y2), store_g2(jobs, lanes, x3, y3)
// where lanes past `lanes` load any value and are never stored.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ff/mont_ifma_lanes.hpp"

namespace zkp::mont::ifma::lanes {

template <class L, class IO>
struct BatchRows {
  using Limbs = typename L::Limbs;
  using Limbs2 = typename L::Limbs2;
  using F = typename IO::F;
  using F2 = typename IO::F2;

  static constexpr std::size_t lanes_of(std::size_t n, std::size_t r) { return n - 8 * r < 8 ? n - 8 * r : 8; }

  // prefix[8r + l] = acc[l], then acc[l] ·= den[8r + l]. acc stays in limbs across the rows:
  // one conversion per row in and one out.
  ZKP_IFMA_FN static void prefix_g1(F* prefix, F* acc, const F* den, std::size_t rows) {
    Limbs a = IO::load(acc);
    for (std::size_t r = 0; r < rows; ++r) {
      IO::store(prefix + 8 * r, a);
      a = L::mont_mul(L::shifted(a), IO::load(den + 8 * r));
    }
    IO::store(acc, a);
  }

  ZKP_IFMA_FN static void add_g1(const typename IO::G1Job* jobs, std::size_t n, const std::uint8_t* dbl,
                                 const F* prefix, const F* den, const F* inv) {
    Limbs lane_inv = IO::load(inv);  // 1/(the product of the denominators of rows < r), per lane
    for (std::size_t r = (n + 7) / 8; r-- > 0;) {
      const Limbs inv_s = L::shifted(lane_inv);
      const Limbs den_inv = L::mont_mul(inv_s, IO::load(prefix + 8 * r));
      lane_inv = L::mont_mul(inv_s, IO::load(den + 8 * r));
      const std::size_t lanes = lanes_of(n, r);
      Limbs x1, y1, x2, y2;
      IO::load_g1(jobs + 8 * r, lanes, x1, y1, x2, y2);
      Limbs num = L::sub_mod(y2, y1);
      if (dbl[r] != 0) {  // 3·x1² in the doubling lanes (rare: equal points in a bucket)
        const Limbs sq = L::mont_mul(L::shifted(x1), x1);
        num = L::blend(dbl[r], num, L::add_mod(L::add_mod(sq, sq), sq));
      }
      const Limbs lambda = L::mont_mul(L::shifted(num), den_inv);
      const Limbs lambda_s = L::shifted(lambda);
      const Limbs x3 = L::sub_mod(L::sub_mod(L::mont_mul(lambda_s, lambda), x1), x2);
      const Limbs y3 = L::sub_mod(L::mont_mul(lambda_s, L::sub_mod(x1, x3)), y1);
      IO::store_g1(jobs + 8 * r, lanes, x3, y3);
    }
  }

  // norm[k] = N(den[k]) = den0² + den1², prefix[8r + l] = acc[l], then acc[l] ·= norm[8r + l].
  ZKP_IFMA_FN static void prefix_g2(F* prefix, F* norm, F* acc, const F2* den, std::size_t rows) {
    Limbs a = IO::load(acc);
    for (std::size_t r = 0; r < rows; ++r) {
      const Limbs2 d = IO::load2(den + 8 * r);
      const Limbs nr = L::add_mod(L::mont_mul(L::shifted(d.c0), d.c0), L::mont_mul(L::shifted(d.c1), d.c1));
      IO::store(norm + 8 * r, nr);
      IO::store(prefix + 8 * r, a);
      a = L::mont_mul(L::shifted(a), nr);
    }
    IO::store(acc, a);
  }

  ZKP_IFMA_FN static void add_g2(const typename IO::G2Job* jobs, std::size_t n, const std::uint8_t* dbl,
                                 const F* prefix, const F* norm, const F2* den, const F* inv) {
    const Limbs zeros = L::zeros();
    Limbs lane_inv = IO::load(inv);  // 1/(the product of the norms of rows < r), per lane
    for (std::size_t r = (n + 7) / 8; r-- > 0;) {
      const Limbs inv_s = L::shifted(lane_inv);
      const Limbs norm_inv = L::mont_mul(inv_s, IO::load(prefix + 8 * r));  // 1/N(d)
      lane_inv = L::mont_mul(inv_s, IO::load(norm + 8 * r));
      const Limbs2 d = IO::load2(den + 8 * r);
      const Limbs norm_inv_s = L::shifted(norm_inv);
      const Limbs2 den_inv{L::mont_mul(norm_inv_s, d.c0),
                           L::sub_mod(zeros, L::mont_mul(norm_inv_s, d.c1))};  // conj(d)/N(d)
      const std::size_t lanes = lanes_of(n, r);
      const auto* row = jobs + 8 * r;
      const Limbs2 x1 = IO::load_g2(row, lanes, 0), y1 = IO::load_g2(row, lanes, 1);
      const Limbs2 x2 = IO::load_g2(row, lanes, 2), y2 = IO::load_g2(row, lanes, 3);
      Limbs2 num = L::sub_mod2(y2, y1);
      if (dbl[r] != 0) {  // 3·x1² in the doubling lanes
        const Limbs2 sq = L::mont_square2(x1);
        const Limbs2 three = L::add_mod2(L::add_mod2(sq, sq), sq);
        num = {L::blend(dbl[r], num.c0, three.c0), L::blend(dbl[r], num.c1, three.c1)};
      }
      const Limbs2 lambda = L::mont_mul2(num, den_inv);
      const Limbs2 x3 = L::sub_mod2(L::sub_mod2(L::mont_square2(lambda), x1), x2);
      const Limbs2 y3 = L::sub_mod2(L::mont_mul2(lambda, L::sub_mod2(x1, x3)), y1);
      IO::store_g2(row, lanes, x3, y3);
    }
  }
};

}  // namespace zkp::mont::ifma::lanes
