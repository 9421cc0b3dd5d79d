// Projective → affine for many points with one field inversion (Montgomery's trick via
// ff/fp_batch.hpp): per point 3M for the trick plus 3M + 1S (Jacobian) or 3M (XYZZ).
// Points at infinity come out as Affine::identity().
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"
#include "core/ec/xyzz.hpp"
#include "core/ff/fp_batch.hpp"

namespace zkp {

// out[i] = in[i].to_affine(); in and out have the same length. Throws std::invalid_argument otherwise.
template <CurveParams C>
void batch_to_affine(std::span<const Jacobian<C>> in, std::span<Affine<C>> out) {
  using F = typename C::Field;
  if (in.size() != out.size()) throw std::invalid_argument("batch_to_affine: size mismatch");
  std::vector<F> zinv(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) zinv[i] = in[i].Z;  // zero for infinity: skipped
  batch_inverse(std::span<F>(zinv));
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_identity()) {
      out[i] = Affine<C>::identity();
      continue;
    }
    const F zi2 = zinv[i].square();
    out[i] = Affine<C>::from_xy(in[i].X * zi2, in[i].Y * zi2 * zinv[i]);
  }
}

// XYZZ version: inverts ZZ·ZZZ per point (see Xyzz::to_affine).
template <CurveParams C>
void batch_to_affine(std::span<const Xyzz<C>> in, std::span<Affine<C>> out) {
  using F = typename C::Field;
  if (in.size() != out.size()) throw std::invalid_argument("batch_to_affine: size mismatch");
  std::vector<F> t(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) t[i] = in[i].ZZ * in[i].ZZZ;
  batch_inverse(std::span<F>(t));
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_identity()) {
      out[i] = Affine<C>::identity();
      continue;
    }
    out[i] = Affine<C>::from_xy(in[i].X * in[i].ZZZ * t[i], in[i].Y * in[i].ZZ * t[i]);
  }
}

}  // namespace zkp
