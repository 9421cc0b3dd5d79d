// first_invalid_point at on_curve over zkey-encoded sections, which runs the curve equation in
// blocks on the batch product (both curves' G1 and G2): the same first bad index as decoding one
// point at a time, for off-curve and non-canonical points alone and together, in one block and
// across blocks, at the ends, beside identities, on 1 and 3 threads.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/ec/encoding.hpp"
#include "core/groth16/point_check.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::groth16 {
namespace {

// 1000 points: three whole blocks of 256 and a tail of 232 (not a multiple of 8 either).
constexpr std::size_t kCount = 1000;

// kCount multiples of the generator, every 37th the identity (all-zero bytes), zkey encoding.
template <class C>
std::vector<std::uint8_t> valid_section() {
  constexpr std::size_t kBytes = kAffineBytes<C>;
  std::vector<std::uint8_t> out(kCount * kBytes);
  Jacobian<C> p = Jacobian<C>::generator();
  for (std::size_t i = 0; i < kCount; ++i, p += Jacobian<C>::generator()) {
    const Affine<C> a = i % 37 == 5 ? Affine<C>::identity() : p.to_affine();
    encode_affine_mont<C>(a, std::span<std::uint8_t, kBytes>(out.data() + i * kBytes, kBytes));
  }
  return out;
}

// y's lowest Montgomery byte changed: still below q, no longer on the curve.
template <class C>
void push_off_curve(std::vector<std::uint8_t>& s, std::size_t i) {
  s[i * kAffineBytes<C> + C::Field::kBytes] ^= 1;
}

// x's bytes all 0xff: not below q.
template <class C>
void make_non_canonical(std::vector<std::uint8_t>& s, std::size_t i) {
  for (std::size_t b = 0; b < C::Field::kBytes; ++b) s[i * kAffineBytes<C> + b] = 0xff;
}

// The answer one point at a time.
template <class C>
std::optional<std::size_t> reference(const std::vector<std::uint8_t>& s) {
  constexpr std::size_t kBytes = kAffineBytes<C>;
  for (std::size_t i = 0; i < kCount; ++i) {
    Affine<C> out;
    if (decode_affine_mont<C>(std::span<const std::uint8_t, kBytes>(s.data() + i * kBytes, kBytes), out,
                              PointCheck::on_curve) != PointStatus::ok) {
      return i;
    }
  }
  return std::nullopt;
}

template <class C>
void expect_same_first_index(const std::vector<std::uint8_t>& s, std::optional<std::size_t> expected) {
  ASSERT_EQ(reference<C>(s), expected);  // the case is what it says
  for (unsigned threads : {1u, 3u}) {
    ThreadPool pool(threads);
    const ByteView bytes(reinterpret_cast<const std::byte*>(s.data()), s.size());
    EXPECT_EQ(first_invalid_point<C>(bytes, kCount, CoordEncoding::montgomery, PointCheck::on_curve, pool), expected)
        << threads << " thread(s)";
  }
}

enum class Bad { off_curve, non_canonical };

template <class C>
void check_cases() {
  const std::vector<std::uint8_t> valid = valid_section<C>();
  expect_same_first_index<C>(valid, std::nullopt);
  // (what, where) pairs; the expected answer is the smallest index.
  const std::vector<std::vector<std::pair<Bad, std::size_t>>> cases = {
      {{Bad::off_curve, 0}},
      {{Bad::non_canonical, 0}},
      {{Bad::off_curve, kCount - 1}},
      {{Bad::non_canonical, kCount - 1}},
      {{Bad::off_curve, 255}, {Bad::off_curve, 256}},
      {{Bad::off_curve, 300}, {Bad::non_canonical, 700}},
      {{Bad::non_canonical, 300}, {Bad::off_curve, 700}},
      {{Bad::non_canonical, 10}, {Bad::off_curve, 20}},   // one block, the canonical failure first
      {{Bad::off_curve, 10}, {Bad::non_canonical, 20}},   // one block, the curve failure first
      {{Bad::off_curve, 13}, {Bad::non_canonical, 780}},  // 13 is not a lane's first
      {{Bad::non_canonical, 799}, {Bad::off_curve, 805}},  // in the tail block
  };
  for (const auto& c : cases) {
    std::vector<std::uint8_t> s = valid;
    std::size_t first = kCount;
    for (const auto& [what, i] : c) {
      if (what == Bad::off_curve) push_off_curve<C>(s, i);
      else make_non_canonical<C>(s, i);
      first = std::min(first, i);
    }
    SCOPED_TRACE(testing::Message() << "first bad " << first);
    expect_same_first_index<C>(s, first);
  }
}

TEST(PointCheck, BatchedOnCurveNamesTheSameFirstPointBn254) { check_cases<bn254::G1>(); }
TEST(PointCheck, BatchedOnCurveNamesTheSameFirstPointBls12381) { check_cases<bls12_381::G1>(); }
TEST(PointCheck, BatchedOnCurveNamesTheSameFirstPointBn254G2) { check_cases<bn254::G2>(); }
TEST(PointCheck, BatchedOnCurveNamesTheSameFirstPointBls12381G2) { check_cases<bls12_381::G2>(); }

}  // namespace
}  // namespace zkp::groth16
