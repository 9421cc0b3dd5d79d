// The bellperson queries streamed from a parameter file into the device
// (provers/cuda/prover/streamed_bases.hpp), in pieces much smaller than the queries: the MSMs
// over the streamed tables equal those over the host-decoded bases (h in the bit-reversed order
// the device H step needs, the other queries as they lie), and a bad point fails the stream
// with the decoder's message and leaves the device usable. Skips without a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/bellperson/params.hpp"
#include "core/formats/error.hpp"
#include "core/ntt/domain.hpp"
#include "cuda/msm/msm.hpp"
#include "cuda/prover/streamed_bases.hpp"
#include "cuda/util/device_guard.hpp"
#include "params_writer.hpp"

namespace zkp::cuda::prover {
namespace {

using bellperson::ParamsFile;
using bls12_381::G1;
using bls12_381::G2;

class StreamedBases : public ::testing::Test {
 protected:
  void SetUp() override {
    cudaError_t error = cudaSuccess;
    if (device_count(&error) == 0) GTEST_SKIP() << "no CUDA device: " << cudaGetErrorString(error);
  }
  ParamsFile open(const std::vector<std::uint8_t>& bytes, std::uint64_t piece) { return file_.open(bytes, piece); }

  bellperson::test::ParamsOnDisk file_{"zkp_streamed_bases"};
  const std::filesystem::path& path_ = file_.path();
};

std::vector<std::uint8_t> random_scalars(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> s(n * 32);
  for (auto& b : s) b = static_cast<std::uint8_t>(rng());
  return s;
}

template <CurveParams C>
std::vector<zkp::msm::Base<C>> decoded(const ParamsFile& f, const bellperson::Extent& e, ThreadPool& pool) {
  std::vector<zkp::msm::Base<C>> out(e.bytes / zcash::kUncompressedBytes<C>);
  f.decode<C>(e, out, PointCheck::on_curve, pool, "q");
  return out;
}

// m = 2^12: h holds 4095 points, streamed in pieces of 100 (41 pieces, the last short).
constexpr unsigned kLogM = 12;
const bellperson::test::Counts kCounts{.ic = 2, .h = (1u << kLogM) - 1, .l = 700, .a = 500, .b = 300};

TEST_F(StreamedBases, TablesEqualTheHostDecodedBases) {
  ThreadPool pool(4);
  const ParamsFile f = open(bellperson::test::write_params(bellperson::test::make_params(kCounts)), 100);
  const auto& l = f.layout();
  const auto scalars = random_scalars(kCounts.h, 7);

  // h, bit-reversed: position p holds h[bitrev(p)].
  const auto h = decoded<G1>(f, l.h, pool);
  std::vector<zkp::msm::Base<G1>> h_permuted(h.size());
  for (std::size_t p = 0; p < h.size(); ++p) h_permuted[p] = h[bit_reverse(p, kLogM)];
  Msm<G1> host_h(0, h_permuted);
  Msm<G1> streamed_h(0, h.size(), streamed_query<G1>(f, l.h, PointCheck::on_curve, pool, "h", kLogM));
  EXPECT_EQ(streamed_h.run(scalars), host_h.run(scalars));

  // l in file order, and b_g2 (G2 points, 192 bytes each).
  const auto l_host = decoded<G1>(f, l.l, pool);
  Msm<G1> host_l(0, l_host);
  Msm<G1> streamed_l(0, l_host.size(), streamed_query<G1>(f, l.l, PointCheck::on_curve, pool, "l"));
  const std::span<const std::uint8_t> sl(scalars.data(), l_host.size() * 32);
  EXPECT_EQ(streamed_l.run(sl), host_l.run(sl));
  const auto b2 = decoded<G2>(f, l.b_g2, pool);
  Msm<G2> host_b2(0, b2);
  Msm<G2> streamed_b2(0, b2.size(), streamed_query<G2>(f, l.b_g2, PointCheck::subgroup, pool, "b_g2"));
  const std::span<const std::uint8_t> sb(scalars.data(), b2.size() * 32);
  EXPECT_EQ(streamed_b2.run(sb), host_b2.run(sb));
  // A precomputed table is built from the streamed bases as from uploaded ones.
  Msm<G1> streamed_pre(0, h.size(), streamed_query<G1>(f, l.h, PointCheck::on_curve, pool, "h", kLogM), {.precompute = 2});
  EXPECT_EQ(streamed_pre.run(scalars), host_h.run(scalars));
}

TEST_F(StreamedBases, ABadPointFailsTheStreamByNameAndTheDeviceGoesOn) {
  ThreadPool pool(4);
  auto bytes = bellperson::test::write_params(bellperson::test::make_params(kCounts));
  // The verifying key (864 bytes), ic (a count and 2 points), h's count: h[0] at 1064.
  constexpr std::size_t kH0 = 864 + 4 + 2 * 96 + 4;
  bytes[kH0 + 96 * 2345 + 95] ^= 1;  // h[2345].y: off the curve
  const ParamsFile f = open(bytes, 100);
  try {
    Msm<G1> m(0, f.layout().h_count, streamed_query<G1>(f, f.layout().h, PointCheck::on_curve, pool, "h", kLogM));
    ADD_FAILURE() << "a bad point was streamed without an error";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), path_.string() + ": h[2345]: point not on the curve");
  }
  const auto l_host = decoded<G1>(f, f.layout().l, pool);
  Msm<G1> host_l(0, l_host);
  Msm<G1> streamed_l(0, l_host.size(), streamed_query<G1>(f, f.layout().l, PointCheck::on_curve, pool, "l"));
  const auto scalars = random_scalars(l_host.size(), 9);
  EXPECT_EQ(streamed_l.run(scalars), host_l.run(scalars));
}

}  // namespace
}  // namespace zkp::cuda::prover
