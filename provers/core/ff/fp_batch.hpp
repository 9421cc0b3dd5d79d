// Batch inversion (Montgomery's trick: P. L. Montgomery, "Speeding the Pollard and
// elliptic curve methods of factorization", Math. Comp. 1987, §10.3.1).
// n inverses for 1 inversion + 3(n − 1) multiplications. Works for Fp and Fp2.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace zkp {

// Replaces every non-zero x[i] by its inverse; zeros stay zero (they are skipped, which
// is what point normalisation wants for points at infinity). Allocates n elements of scratch.
template <class F>
void batch_inverse(std::span<F> x) {
  std::vector<F> prefix(x.size());  // prefix[i] = product of the non-zero x[0..i)
  F acc = F::one();
  for (std::size_t i = 0; i < x.size(); ++i) {
    prefix[i] = acc;
    if (!x[i].is_zero()) acc *= x[i];
  }
  F inv = acc.inverse();  // inverse of the product of all non-zero entries
  for (std::size_t i = x.size(); i-- > 0;) {
    if (x[i].is_zero()) continue;
    const F xi = x[i];
    x[i] = inv * prefix[i];
    inv *= xi;
  }
}

}  // namespace zkp
