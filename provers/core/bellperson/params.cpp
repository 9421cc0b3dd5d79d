#include "core/bellperson/params.hpp"

#include <bit>
#include <stdexcept>

#include "core/ec/zcash_encoding.hpp"
#include "core/formats/error.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::bellperson {
namespace {

constexpr std::uint64_t kG1Bytes = zcash::kUncompressedBytes<bls12_381::G1>;
constexpr std::uint64_t kG2Bytes = zcash::kUncompressedBytes<bls12_381::G2>;
constexpr std::uint64_t kCountBytes = 4;

// Walks the file front to back; every read names the section it is for.
class Cursor {
 public:
  Cursor(ByteView bytes, std::string_view file) : bytes_(bytes), file_(file) {}

  ByteView point(std::string_view what, std::uint64_t point_bytes) {
    return take(what, point_bytes, [&] { return detail::concat("the point needs ", point_bytes, " bytes"); });
  }

  // A u32 BE count, then that many points.
  ByteView points(std::string_view what, std::uint64_t point_bytes, std::uint64_t& count) {
    const ByteView c = take(what, kCountBytes, [] { return std::string("the u32 point count needs 4 bytes"); });
    count = 0;
    for (std::byte b : c) count = (count << 8) | static_cast<std::uint64_t>(b);
    const std::uint64_t n = count;  // < 2^32, so n · 192 cannot overflow
    return take(what, n * point_bytes,
                [&] { return detail::concat(n, " points × ", point_bytes, " bytes = ", n * point_bytes, " bytes"); });
  }

  void expect_end(std::string_view last) const {
    if (offset_ != bytes_.size()) {
      format_fail(file_, bytes_.size() - offset_, " trailing bytes after ", last, ", from offset ", offset_);
    }
  }

 private:
  template <class Need>
  ByteView take(std::string_view what, std::uint64_t n, const Need& need) {
    const std::uint64_t left = bytes_.size() - offset_;
    if (n > left) {
      format_fail(file_, what, ": truncated: ", need(), " from offset ", offset_, ", only ", left, " left (", n - left,
                  " missing)");
    }
    const ByteView v = bytes_.subspan(offset_, n);
    offset_ += n;
    return v;
  }

  ByteView bytes_;
  std::string_view file_;
  std::uint64_t offset_ = 0;
};

// What bellperson's generator guarantees about the counts (see params.hpp).
void check_counts(const ParamsLayout& p, std::string_view file) {
  if (p.ic_count == 0) {
    format_fail(file, "ic: 0 points; a verifying key has at least one (input 0, the constant one)");
  }
  if (!std::has_single_bit(p.h_count + 1)) {
    format_fail(file, "h: ", p.h_count, " points; bellperson writes m - 1 for a power-of-two domain m, and ",
                p.h_count + 1, " is not a power of two");
  }
  const std::uint64_t vars = p.num_variables();
  const auto subset = [&](std::string_view what, std::uint64_t n) {
    if (n > vars) {
      format_fail(file, what, ": ", n, " points, more than the ", vars, " variables (ic ", p.ic_count, " + l ",
                  p.l_count, ")");
    }
  };
  subset("a", p.a_count);
  subset("b_g1", p.b_g1_count);
  if (p.b_g2_count != p.b_g1_count) {
    format_fail(file, "b_g2: ", p.b_g2_count, " points, but b_g1 has ", p.b_g1_count,
                " (both hold the variables of B)");
  }
}

template <zcash::Group C>
Affine<C> decode_vk_point(ByteView raw, std::string_view file, std::string_view what) {
  const std::span<const std::uint8_t, zcash::kUncompressedBytes<C>> in(
      reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size());
  Affine<C> p;
  const PointStatus s = zcash::decode_uncompressed<C>(in, p, PointCheck::subgroup);
  if (s != PointStatus::ok) format_fail(file, what, ": ", to_string(s));
  return p;
}

// Points per task. Time per G1 point (bench_bellperson_decode, one thread, a shared 2-core
// box): ~0.2 µs unchecked, ~0.4 µs on-curve, ~80 µs with the subgroup test. parallel_for
// splits into a few chunks per thread anyway; the grain only keeps tiny queries on one thread.
constexpr std::size_t kDecodeGrain = 256;

}  // namespace

ParamsFile ParamsFile::read(ByteSource source) {
  const std::string_view file = source.name();
  Cursor c(source.bytes(), file);
  ParamsLayout p;
  p.alpha_g1 = c.point("vk.alpha_g1", kG1Bytes);
  p.beta_g1 = c.point("vk.beta_g1", kG1Bytes);
  p.beta_g2 = c.point("vk.beta_g2", kG2Bytes);
  p.gamma_g2 = c.point("vk.gamma_g2", kG2Bytes);
  p.delta_g1 = c.point("vk.delta_g1", kG1Bytes);
  p.delta_g2 = c.point("vk.delta_g2", kG2Bytes);
  p.ic = c.points("ic", kG1Bytes, p.ic_count);
  p.h = c.points("h", kG1Bytes, p.h_count);
  p.l = c.points("l", kG1Bytes, p.l_count);
  p.a = c.points("a", kG1Bytes, p.a_count);
  p.b_g1 = c.points("b_g1", kG1Bytes, p.b_g1_count);
  p.b_g2 = c.points("b_g2", kG2Bytes, p.b_g2_count);
  c.expect_end("b_g2");
  check_counts(p, file);
  return ParamsFile(std::move(source), p);
}

template <CurveParams C>
void decode_query(ByteView raw, std::span<msm::Base<C>> out, PointCheck check, ThreadPool& pool, std::string_view file,
                  std::string_view what) {
  static_assert(zcash::Group<C>, "bellperson files hold BLS12-381 points");
  constexpr std::size_t kBytes = zcash::kUncompressedBytes<C>;
  if (raw.size() % kBytes != 0 || raw.size() / kBytes != out.size()) {
    throw std::invalid_argument(
        detail::concat("decode_query: ", raw.size(), " bytes are not ", out.size(), " points of ", kBytes, " bytes"));
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(raw.data());
  const auto decode = [&](std::size_t i, Affine<C>& p) {
    const std::span<const std::uint8_t, kBytes> in(bytes + i * kBytes, kBytes);
    const PointStatus s = zcash::decode_uncompressed<C>(in, p, check);
    if (s != PointStatus::ok) return s;
    if (p.infinity) return PointStatus::at_infinity;
    // Unchecked (0, 0) decodes, but would read as infinity in the Base layout.
    if (p.x.is_zero() && p.y.is_zero()) return PointStatus::not_on_curve;
    return PointStatus::ok;
  };
  const auto bad = first_index(pool, out.size(), kDecodeGrain, [&](std::size_t i) {
    Affine<C> p;
    if (decode(i, p) != PointStatus::ok) return true;
    out[i] = {p.x, p.y};
    return false;
  });
  if (bad) {
    Affine<C> p;
    format_fail(file, what, "[", *bad, "]: ", to_string(decode(*bad, p)));
  }
}

template void decode_query<bls12_381::G1>(ByteView, std::span<msm::Base<bls12_381::G1>>, PointCheck, ThreadPool&,
                                          std::string_view, std::string_view);
template void decode_query<bls12_381::G2>(ByteView, std::span<msm::Base<bls12_381::G2>>, PointCheck, ThreadPool&,
                                          std::string_view, std::string_view);

VerifyingPoints decode_verifying_points(const ParamsFile& file) {
  using bls12_381::G1;
  using bls12_381::G2;
  const ParamsLayout& p = file.layout();
  const std::string_view name = file.name();
  VerifyingPoints v;
  v.alpha_g1 = decode_vk_point<G1>(p.alpha_g1, name, "vk.alpha_g1");
  v.beta_g1 = decode_vk_point<G1>(p.beta_g1, name, "vk.beta_g1");
  v.beta_g2 = decode_vk_point<G2>(p.beta_g2, name, "vk.beta_g2");
  v.gamma_g2 = decode_vk_point<G2>(p.gamma_g2, name, "vk.gamma_g2");
  v.delta_g1 = decode_vk_point<G1>(p.delta_g1, name, "vk.delta_g1");
  v.delta_g2 = decode_vk_point<G2>(p.delta_g2, name, "vk.delta_g2");
  v.ic.reserve(p.ic_count);
  for (std::uint64_t i = 0; i < p.ic_count; ++i) {
    v.ic.push_back(decode_vk_point<G1>(p.ic.subspan(i * kG1Bytes, kG1Bytes), name, detail::concat("ic[", i, "]")));
  }
  return v;
}

}  // namespace zkp::bellperson
