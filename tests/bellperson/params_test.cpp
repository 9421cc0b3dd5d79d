// bellperson parameter files (core/bellperson/params.hpp) on synthetic files built in memory:
// the layout found, every malformed structure with its exact message, and the decoding of the
// queries and of the verifying key with each point check.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/bellperson/params.hpp"
#include "core/formats/error.hpp"
#include "core/util/thread_pool.hpp"
#include "params_writer.hpp"

namespace zkp::bellperson::test {
namespace {

constexpr const char* kName = "t.params";

ParamsFile read_bytes(const std::vector<std::uint8_t>& b) {
  return ParamsFile::read(
      ByteSource::adopt(std::vector<std::byte>(reinterpret_cast<const std::byte*>(b.data()),
                                               reinterpret_cast<const std::byte*>(b.data()) + b.size()),
                        kName));
}

// The FormatError message of reading `b`, or "no error".
std::string read_error(const std::vector<std::uint8_t>& b) {
  try {
    read_bytes(b);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::uint8_t> cut(std::vector<std::uint8_t> b, std::size_t size) {
  b.resize(size);
  return b;
}

// Offsets in the default file (Counts{}): vk 864 bytes, then count + points per section.
constexpr std::size_t kIcAt = 864, kHAt = 1060, kLAt = 1352, kAAt = 1740, kB1At = 2224, kB2At = 2516, kEnd = 3096;

TEST(ParamsFile, FindsEverySection) {
  const auto bytes = write_params(make_params());
  ASSERT_EQ(bytes.size(), kEnd);
  const ParamsFile f = read_bytes(bytes);
  EXPECT_EQ(f.name(), kName);
  const ParamsLayout& p = f.layout();
  const auto at = [&](ByteView v) {
    return static_cast<std::size_t>(reinterpret_cast<const std::uint8_t*>(v.data()) -
                                    reinterpret_cast<const std::uint8_t*>(p.alpha_g1.data()));
  };
  EXPECT_EQ(at(p.beta_g1), 96u);
  EXPECT_EQ(at(p.beta_g2), 192u);
  EXPECT_EQ(at(p.gamma_g2), 384u);
  EXPECT_EQ(at(p.delta_g1), 576u);
  EXPECT_EQ(at(p.delta_g2), 672u);
  EXPECT_EQ(p.alpha_g1.size(), 96u);
  EXPECT_EQ(p.delta_g2.size(), 192u);
  EXPECT_EQ(at(p.ic), kIcAt + 4);
  EXPECT_EQ(p.h.offset, kHAt + 4);
  EXPECT_EQ(p.l.offset, kLAt + 4);
  EXPECT_EQ(p.a.offset, kAAt + 4);
  EXPECT_EQ(p.b_g1.offset, kB1At + 4);
  EXPECT_EQ(p.b_g2.offset, kB2At + 4);
  EXPECT_EQ(p.ic_count, 2u);
  EXPECT_EQ(p.h_count, 3u);
  EXPECT_EQ(p.l_count, 4u);
  EXPECT_EQ(p.a_count, 5u);
  EXPECT_EQ(p.b_g1_count, 3u);
  EXPECT_EQ(p.b_g2_count, 3u);
  EXPECT_EQ(p.num_variables(), 6u);
  EXPECT_EQ(p.b_g2.bytes, 3u * 192);
  EXPECT_EQ(p.h.bytes, 3u * 96);
}

TEST(ParamsFile, ViewsSurviveMovingTheFile) {
  const auto bytes = write_params(make_params());
  ParamsFile f = read_bytes(bytes);
  const ByteView ic = f.layout().ic;
  const ParamsFile moved = std::move(f);
  EXPECT_EQ(moved.layout().ic.data(), ic.data());
  ThreadPool pool(1);
  std::vector<msm::Base<G1>> out(moved.layout().h_count);
  moved.decode<G1>(moved.layout().h, out, PointCheck::subgroup, pool, "h");
  EXPECT_EQ(out[0].x, make_params().h[0].x);
}

TEST(ParamsFile, ReadsAFile) {
  const auto path =
      std::filesystem::temp_directory_path() / ("zkp_bellperson_" + std::to_string(::getpid()) + ".params");
  const auto bytes = write_params(make_params());
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  const ParamsFile f = ParamsFile::open(path);
  EXPECT_EQ(f.name(), path.string());
  EXPECT_EQ(f.layout().l_count, 4u);
  EXPECT_EQ(decode_verifying_points(f).delta_g2, make_params().delta_g2);
  std::filesystem::remove(path);
}

TEST(ParamsFile, TruncatedVerifyingKey) {
  const auto bytes = write_params(make_params());
  EXPECT_EQ(read_error({}),
            "t.params: vk.alpha_g1: truncated: the point needs 96 bytes from offset 0, only 0 left (96 missing)");
  EXPECT_EQ(read_error(cut(bytes, 500)),
            "t.params: vk.gamma_g2: truncated: the point needs 192 bytes from offset 384, only 116 left (76 missing)");
  EXPECT_EQ(read_error(cut(bytes, 863)),
            "t.params: vk.delta_g2: truncated: the point needs 192 bytes from offset 672, only 191 left (1 missing)");
}

TEST(ParamsFile, TruncatedCounts) {
  const auto bytes = write_params(make_params());
  EXPECT_EQ(read_error(cut(bytes, kIcAt + 2)),
            "t.params: ic: truncated: the u32 point count needs 4 bytes from offset 864, only 2 left (2 missing)");
  EXPECT_EQ(read_error(cut(bytes, kB2At)),
            "t.params: b_g2: truncated: the u32 point count needs 4 bytes from offset 2516, only 0 left (4 missing)");
}

TEST(ParamsFile, TruncatedPoints) {
  const auto bytes = write_params(make_params());
  EXPECT_EQ(read_error(cut(bytes, 1100)),
            "t.params: h: truncated: 3 points × 96 bytes = 288 bytes from offset 1064, only 36 left (252 missing)");
  EXPECT_EQ(read_error(cut(bytes, kEnd - 1)),
            "t.params: b_g2: truncated: 3 points × 192 bytes = 576 bytes from offset 2520, only 575 left (1 missing)");
  auto huge = bytes;  // a count far beyond the file: reported, nothing allocated
  for (std::size_t i = 0; i < 4; ++i) huge[kHAt + i] = 0xff;
  EXPECT_EQ(
      read_error(huge),
      "t.params: h: truncated: 4294967295 points × 96 bytes = 412316860320 bytes from offset 1064, only 2032 left "
      "(412316858288 missing)");
}

TEST(ParamsFile, TrailingBytes) {
  auto bytes = write_params(make_params());
  bytes.insert(bytes.end(), 5, 0);
  EXPECT_EQ(read_error(bytes), "t.params: 5 trailing bytes after b_g2, from offset 3096");
}

TEST(ParamsFile, CountsThatBellpersonNeverWrites) {
  EXPECT_EQ(read_error(write_params(make_params({.ic = 0, .l = 6}))),
            "t.params: ic: 0 points; a verifying key has at least one (input 0, the constant one)");
  EXPECT_EQ(read_error(write_params(make_params({.h = 6}))),
            "t.params: h: 6 points; bellperson writes m - 1 for a power-of-two domain m, and 7 is not a power of two");
  EXPECT_EQ(read_error(write_params(make_params({.a = 7}))),
            "t.params: a: 7 points, more than the 6 variables (ic 2 + l 4)");
  EXPECT_EQ(read_error(write_params(make_params({.b = 7}))),
            "t.params: b_g1: 7 points, more than the 6 variables (ic 2 + l 4)");
  Params p = make_params();
  p.b_g2.pop_back();
  EXPECT_EQ(read_error(write_params(p)), "t.params: b_g2: 2 points, but b_g1 has 3 (both hold the variables of B)");
}

TEST(ParamsFile, SmallestLegalCounts) {
  // One input, no aux, domain m = 1 (no h), empty a and b: what the generator writes for an empty circuit.
  const ParamsFile f = read_bytes(write_params(make_params({.ic = 1, .h = 0, .l = 0, .a = 0, .b = 0})));
  EXPECT_EQ(f.layout().num_variables(), 1u);
  EXPECT_EQ(f.layout().h.bytes, 0u);
  ThreadPool pool(1);
  f.decode<G1>(f.layout().h, std::span<msm::Base<G1>>(), PointCheck::subgroup, pool, "h");
}

template <class C>
std::vector<msm::Base<C>> decode_all(const ParamsFile& f, const Extent& where, PointCheck check, ThreadPool& pool,
                                     const char* what) {
  std::vector<msm::Base<C>> out(where.bytes / zcash::kUncompressedBytes<C>);
  f.decode<C>(where, out, check, pool, what);
  return out;
}

template <class C>
void expect_points(const std::vector<msm::Base<C>>& got, const std::vector<Affine<C>>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].x, want[i].x) << i;
    EXPECT_EQ(got[i].y, want[i].y) << i;
  }
}

TEST(DecodeQuery, EverySectionWithEveryCheck) {
  const Params p = make_params();
  const ParamsFile f = read_bytes(write_params(p));
  const ParamsLayout& l = f.layout();
  ThreadPool pool(2);
  for (PointCheck check : {PointCheck::canonical, PointCheck::on_curve, PointCheck::subgroup}) {
    expect_points(decode_all<G1>(f, l.h, check, pool, "h"), p.h);
    expect_points(decode_all<G1>(f, l.l, check, pool, "l"), p.l);
    expect_points(decode_all<G1>(f, l.a, check, pool, "a"), p.a);
    expect_points(decode_all<G1>(f, l.b_g1, check, pool, "b_g1"), p.b_g1);
    expect_points(decode_all<G2>(f, l.b_g2, check, pool, "b_g2"), p.b_g2);
  }
}

TEST(DecodeQuery, WritesIntoCallerMemoryOnly) {
  const Params p = make_params();
  const ParamsFile f = read_bytes(write_params(p));
  ThreadPool pool(2);
  // A window in the middle of a larger buffer, as into a pinned staging area: the rest stays.
  std::vector<msm::Base<G2>> buffer(7);
  const msm::Base<G2> guard{Fq2::one(), Fq2::one()};
  for (auto& b : buffer) b = guard;
  f.decode<G2>(f.layout().b_g2, std::span(buffer).subspan(2, 3), PointCheck::subgroup, pool, "b_g2");
  for (std::size_t i : {0, 1, 5, 6}) EXPECT_EQ(buffer[i].x, guard.x) << i;
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(buffer[2 + i].y, p.b_g2[i].y) << i;
}

TEST(DecodeQuery, SizeMismatchIsTheCallersBug) {
  const ParamsFile f = read_bytes(write_params(make_params()));
  ThreadPool pool(1);
  std::vector<msm::Base<G1>> out(2);
  EXPECT_THROW(f.decode<G1>(f.layout().h, out, PointCheck::canonical, pool, "h"), std::invalid_argument);
  EXPECT_THROW(f.decode<G1>({f.layout().h.offset, 100}, out, PointCheck::canonical, pool, "h"), std::invalid_argument);
}

// The bytes of point `index` of a query section starting at `section` (after its count).
template <class C>
std::span<std::uint8_t, zcash::kUncompressedBytes<C>> point_bytes(std::vector<std::uint8_t>& b, std::size_t section,
                                                                  std::size_t index) {
  return std::span<std::uint8_t, zcash::kUncompressedBytes<C>>(
      b.data() + section + 4 + index * zcash::kUncompressedBytes<C>, zcash::kUncompressedBytes<C>);
}

TEST(DecodeQuery, RefusesInfinityWhateverTheCheck) {
  Params p = make_params();
  p.l[2] = Affine<G1>::identity();
  p.b_g2[1] = Affine<G2>::identity();
  const ParamsFile f = read_bytes(write_params(p));
  ThreadPool pool(2);
  for (PointCheck check : {PointCheck::canonical, PointCheck::subgroup}) {
    EXPECT_EQ(error_of([&] { decode_all<G1>(f, f.layout().l, check, pool, "l"); }),
              "t.params: l[2]: point at infinity where a finite point is required");
    EXPECT_EQ(error_of([&] { decode_all<G2>(f, f.layout().b_g2, check, pool, "b_g2"); }),
              "t.params: b_g2[1]: point at infinity where a finite point is required");
  }
}

TEST(DecodeQuery, ZeroBytesAreNotInfinityEvenUnchecked) {
  auto b = write_params(make_params());
  auto pt = point_bytes<G1>(b, kAAt, 4);
  std::fill(pt.begin(), pt.end(), 0);
  const ParamsFile f = read_bytes(b);
  ThreadPool pool(1);
  EXPECT_EQ(error_of([&] { decode_all<G1>(f, f.layout().a, PointCheck::canonical, pool, "a"); }),
            "t.params: a[4]: point not on the curve");
}

TEST(DecodeQuery, ChecksAsAsked) {
  auto b = write_params(make_params());
  point_bytes<G1>(b, kAAt, 1).back() ^= 1;  // y changed: off the curve
  zcash::encode_uncompressed<G2>(off_subgroup_point<G2>(), point_bytes<G2>(b, kB2At, 0));
  point_bytes<G1>(b, kHAt, 2)[0] |= zcash::kFlagCompressed;
  const ParamsFile f = read_bytes(b);
  const ParamsLayout& l = f.layout();
  ThreadPool pool(2);
  EXPECT_NO_THROW(decode_all<G1>(f, l.a, PointCheck::canonical, pool, "a"));
  EXPECT_EQ(error_of([&] { decode_all<G1>(f, l.a, PointCheck::on_curve, pool, "a"); }),
            "t.params: a[1]: point not on the curve");
  EXPECT_NO_THROW(decode_all<G2>(f, l.b_g2, PointCheck::on_curve, pool, "b_g2"));
  EXPECT_EQ(error_of([&] { decode_all<G2>(f, l.b_g2, PointCheck::subgroup, pool, "b_g2"); }),
            "t.params: b_g2[0]: point not in the prime-order subgroup");
  EXPECT_EQ(error_of([&] { decode_all<G1>(f, l.h, PointCheck::canonical, pool, "h"); }),
            "t.params: h[2]: flag bits wrong for this encoding (compression or sort bit)");
}

// A file whose h holds 4095 points (a domain of 4096), two of them off the curve, far apart.
std::vector<std::uint8_t> two_bad_h_points() {
  auto b = write_params(make_params({.ic = 1, .h = 4095, .l = 0, .a = 0, .b = 0}));
  const std::size_t h_at = 864 + 4 + 96;
  point_bytes<G1>(b, h_at, 3000).back() ^= 1;
  point_bytes<G1>(b, h_at, 1234).back() ^= 1;
  return b;
}

TEST(DecodeQuery, NamesTheFirstBadPointWhateverTheThreads) {
  // Chunks race; the smaller index wins.
  const ParamsFile f = read_bytes(two_bad_h_points());
  for (unsigned threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(error_of([&] { decode_all<G1>(f, f.layout().h, PointCheck::on_curve, pool, "h"); }),
              "t.params: h[1234]: point not on the curve")
        << threads;
  }
}

TEST(VerifyingPoints, DecodesTheKey) {
  Params p = make_params();
  p.ic[1] = Affine<G1>::identity();  // allowed in the key
  const VerifyingPoints v = decode_verifying_points(read_bytes(write_params(p)));
  EXPECT_EQ(v.alpha_g1, p.alpha_g1);
  EXPECT_EQ(v.beta_g1, p.beta_g1);
  EXPECT_EQ(v.delta_g1, p.delta_g1);
  EXPECT_EQ(v.beta_g2, p.beta_g2);
  EXPECT_EQ(v.gamma_g2, p.gamma_g2);
  EXPECT_EQ(v.delta_g2, p.delta_g2);
  ASSERT_EQ(v.ic.size(), 2u);
  EXPECT_EQ(v.ic[0], p.ic[0]);
  EXPECT_TRUE(v.ic[1].infinity);
}

TEST(VerifyingPoints, AlwaysChecksTheSubgroup) {
  Params p = make_params();
  p.beta_g2 = off_subgroup_point<G2>();
  EXPECT_EQ(error_of([&] { decode_verifying_points(read_bytes(write_params(p))); }),
            "t.params: vk.beta_g2: point not in the prime-order subgroup");
  p = make_params();
  p.delta_g1 = off_subgroup_point<G1>();
  EXPECT_EQ(error_of([&] { decode_verifying_points(read_bytes(write_params(p))); }),
            "t.params: vk.delta_g1: point not in the prime-order subgroup");
  auto b = write_params(make_params());
  b[kIcAt + 4 + 96 + 95] ^= 1;  // ic[1].y
  EXPECT_EQ(error_of([&] { decode_verifying_points(read_bytes(b)); }), "t.params: ic[1]: point not on the curve");
}

// ParamsFile::open: the same file streamed from disk, in pieces smaller than its queries.
class Streamed : public ::testing::Test {
 protected:
  ParamsFile open(const std::vector<std::uint8_t>& bytes, std::uint64_t piece_points) {
    return file_.open(bytes, piece_points);
  }

  ParamsOnDisk file_{"zkp_streamed"};
  const std::filesystem::path& path_ = file_.path();
};

TEST_F(Streamed, FindsTheSameLayoutAndDecodesTheSamePoints) {
  const Params p = make_params();
  const auto bytes = write_params(p);
  const ParamsFile in_memory = read_bytes(bytes);
  ThreadPool pool(2);
  for (std::uint64_t piece : {1u, 2u, 3u, 1000u}) {
    const ParamsFile f = open(bytes, piece);
    const ParamsLayout& l = f.layout();
    const ParamsLayout& m = in_memory.layout();
    for (auto [a, b] : {std::pair{l.h, m.h}, {l.l, m.l}, {l.a, m.a}, {l.b_g1, m.b_g1}, {l.b_g2, m.b_g2}}) {
      EXPECT_EQ(a.offset, b.offset);
      EXPECT_EQ(a.bytes, b.bytes);
    }
    EXPECT_EQ(l.ic_count, m.ic_count);
    EXPECT_TRUE(std::ranges::equal(l.ic, m.ic));
    EXPECT_TRUE(std::ranges::equal(l.delta_g2, m.delta_g2));
    EXPECT_EQ(decode_verifying_points(f).delta_g2, p.delta_g2);
    expect_points(decode_all<G1>(f, l.h, PointCheck::subgroup, pool, "h"), p.h);
    expect_points(decode_all<G1>(f, l.l, PointCheck::subgroup, pool, "l"), p.l);
    expect_points(decode_all<G1>(f, l.a, PointCheck::on_curve, pool, "a"), p.a);
    expect_points(decode_all<G1>(f, l.b_g1, PointCheck::canonical, pool, "b_g1"), p.b_g1);
    expect_points(decode_all<G2>(f, l.b_g2, PointCheck::subgroup, pool, "b_g2"), p.b_g2);
  }
}

TEST_F(Streamed, StructureErrorsAreTheSame) {
  const auto bytes = write_params(make_params());
  EXPECT_EQ(error_of([&] { open(cut(bytes, 1100), 2); }),
            std::string(path_.string()) +
                ": h: truncated: 3 points × 96 bytes = 288 bytes from offset 1064, only 36 left (252 missing)");
  auto longer = bytes;
  longer.insert(longer.end(), 5, 0);
  EXPECT_EQ(error_of([&] { open(longer, 2); }), path_.string() + ": 5 trailing bytes after b_g2, from offset 3096");
}

TEST_F(Streamed, NamesTheFirstBadPointAcrossPieces) {
  ThreadPool pool(2);
  const ParamsFile f = open(two_bad_h_points(), 100);  // 1234 is point 34 of piece 12
  EXPECT_EQ(error_of([&] { decode_all<G1>(f, f.layout().h, PointCheck::on_curve, pool, "h"); }),
            path_.string() + ": h[1234]: point not on the curve");
}

TEST_F(Streamed, AFileThatShrinksAfterOpenIsAnIoError) {
  const ParamsFile f = open(write_params(make_params()), 2);
  std::filesystem::resize_file(path_, kLAt);  // h is still there, l onwards is gone
  ThreadPool pool(1);
  EXPECT_NO_THROW(decode_all<G1>(f, f.layout().h, PointCheck::subgroup, pool, "h"));
  try {
    decode_all<G1>(f, f.layout().a, PointCheck::subgroup, pool, "a");
    ADD_FAILURE() << "no error";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("the file shrank while it was read"), std::string::npos) << e.what();
  }
}

// ParamsFile::stream: each piece decoded into the caller's two buffers in turn and handed
// over in order, the same points decode() gives, from a file and from memory.
template <CurveParams C>
std::vector<msm::Base<C>> stream_all(const ParamsFile& f, const Extent& e, PointCheck check, ThreadPool& pool,
                                     std::uint64_t buffer_points, std::vector<int>* buffers_used = nullptr) {
  std::vector<msm::Base<C>> a(buffer_points), b(buffer_points), out;
  std::uint64_t expected_first = 0;
  f.stream<C>(e, {std::span<msm::Base<C>>(a), std::span<msm::Base<C>>(b)}, check, pool, "q",
              [&](std::uint64_t first, std::span<const msm::Base<C>> decoded) {
                EXPECT_EQ(first, expected_first);
                expected_first += decoded.size();
                if (buffers_used != nullptr) {
                  buffers_used->push_back(decoded.data() == a.data() ? 0 : decoded.data() == b.data() ? 1 : -1);
                }
                out.insert(out.end(), decoded.begin(), decoded.end());
              });
  return out;
}

TEST_F(Streamed, StreamHandsOverEveryPieceInOrderThroughBothBuffers) {
  const Params p = make_params();
  const auto bytes = write_params(p);
  ThreadPool pool(2);
  for (std::uint64_t piece : {1u, 2u, 3u, 1000u}) {
    const ParamsFile f = open(bytes, piece);
    std::vector<int> used;
    expect_points(stream_all<G1>(f, f.layout().h, PointCheck::subgroup, pool, piece, &used), p.h);
    ASSERT_FALSE(used.empty());
    for (std::size_t k = 0; k < used.size(); ++k) EXPECT_EQ(used[k], static_cast<int>(k % 2)) << "piece " << k;
    expect_points(stream_all<G1>(f, f.layout().l, PointCheck::on_curve, pool, piece), p.l);
    expect_points(stream_all<G2>(f, f.layout().b_g2, PointCheck::subgroup, pool, piece), p.b_g2);
  }
  // From memory (ParamsFile::read): whole-query pieces.
  const ParamsFile m = read_bytes(bytes);
  expect_points(stream_all<G1>(m, m.layout().a, PointCheck::on_curve, pool, std::min<std::uint64_t>(m.piece_points(), p.a.size())),
                p.a);
}

TEST_F(Streamed, StreamNamesTheFirstBadPointAndRefusesSmallBuffers) {
  ThreadPool pool(2);
  const ParamsFile f = open(two_bad_h_points(), 100);
  std::uint64_t handed = 0;
  std::vector<msm::Base<G1>> a(100), b(100);
  EXPECT_EQ(error_of([&] {
              f.stream<G1>(f.layout().h, {std::span<msm::Base<G1>>(a), std::span<msm::Base<G1>>(b)}, PointCheck::on_curve,
                           pool, "h", [&](std::uint64_t, std::span<const msm::Base<G1>> d) { handed += d.size(); });
            }),
            path_.string() + ": h[1234]: point not on the curve");
  EXPECT_EQ(handed, 1200u);  // the twelve good pieces before it, nothing after
  std::vector<msm::Base<G1>> small(99);
  EXPECT_THROW(f.stream<G1>(f.layout().h, {std::span<msm::Base<G1>>(small), std::span<msm::Base<G1>>(a)},
                            PointCheck::on_curve, pool, "h", [](std::uint64_t, std::span<const msm::Base<G1>>) {}),
               std::invalid_argument);
}

TEST_F(Streamed, RefusesWhatIsNotARegularFile) {
  EXPECT_EQ(error_of([&] { ParamsFile::open(std::filesystem::temp_directory_path()); }),
            std::filesystem::temp_directory_path().string() +
                ": is a directory, not a regular file (zkpipe reads only regular files)");
  EXPECT_THROW(ParamsFile::open(path_.string() + ".missing"), IoError);
}

}  // namespace
}  // namespace zkp::bellperson::test
