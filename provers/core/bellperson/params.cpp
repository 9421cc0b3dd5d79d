#include "core/bellperson/params.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <future>
#include <stdexcept>
#include <vector>

#include "core/ec/zcash_encoding.hpp"
#include "core/formats/error.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::bellperson {
namespace {

constexpr std::uint64_t kG1Bytes = zcash::kUncompressedBytes<bls12_381::G1>;
constexpr std::uint64_t kG2Bytes = zcash::kUncompressedBytes<bls12_381::G2>;
constexpr std::uint64_t kCountBytes = 4;

// Walks the file front to back by offsets; every step names the section it is for. The counts
// are read through `read_count` (from memory, or from the file), nothing else is read.
template <class ReadCount>
class Cursor {
 public:
  Cursor(std::uint64_t size, std::string_view file, const ReadCount& read_count)
      : size_(size), file_(file), read_count_(read_count) {}

  Extent point(std::string_view what, std::uint64_t point_bytes) {
    return take(what, point_bytes, [&] { return detail::concat("the point needs ", point_bytes, " bytes"); });
  }

  // A u32 BE count, then that many points.
  Extent points(std::string_view what, std::uint64_t point_bytes, std::uint64_t& count) {
    const Extent at = take(what, kCountBytes, [] { return std::string("the u32 point count needs 4 bytes"); });
    std::array<std::byte, kCountBytes> c{};
    read_count_(at.offset, std::span<std::byte>(c));
    count = 0;
    for (std::byte b : c) count = (count << 8) | static_cast<std::uint64_t>(b);
    const std::uint64_t n = count;  // < 2^32, so n · 192 cannot overflow
    return take(what, n * point_bytes,
                [&] { return detail::concat(n, " points × ", point_bytes, " bytes = ", n * point_bytes, " bytes"); });
  }

  void expect_end(std::string_view last) const {
    if (offset_ != size_) format_fail(file_, size_ - offset_, " trailing bytes after ", last, ", from offset ", offset_);
  }

 private:
  template <class Need>
  Extent take(std::string_view what, std::uint64_t n, const Need& need) {
    const std::uint64_t left = size_ - offset_;
    if (n > left) {
      format_fail(file_, what, ": truncated: ", need(), " from offset ", offset_, ", only ", left, " left (", n - left,
                  " missing)");
    }
    const Extent e{offset_, n};
    offset_ += n;
    return e;
  }

  std::uint64_t size_;
  std::string_view file_;
  const ReadCount& read_count_;
  std::uint64_t offset_ = 0;
};

// Every section's extent; the verifying key's come first, then ic, then the queries.
struct Sections {
  Extent alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic;
  ParamsLayout layout;  // the queries' extents and every count; its views are set by the caller
};

template <class ReadCount>
Sections find_sections(std::uint64_t size, std::string_view file, const ReadCount& read_count) {
  Cursor<ReadCount> c(size, file, read_count);
  Sections s;
  ParamsLayout& p = s.layout;
  s.alpha_g1 = c.point("vk.alpha_g1", kG1Bytes);
  s.beta_g1 = c.point("vk.beta_g1", kG1Bytes);
  s.beta_g2 = c.point("vk.beta_g2", kG2Bytes);
  s.gamma_g2 = c.point("vk.gamma_g2", kG2Bytes);
  s.delta_g1 = c.point("vk.delta_g1", kG1Bytes);
  s.delta_g2 = c.point("vk.delta_g2", kG2Bytes);
  s.ic = c.points("ic", kG1Bytes, p.ic_count);
  p.h = c.points("h", kG1Bytes, p.h_count);
  p.l = c.points("l", kG1Bytes, p.l_count);
  p.a = c.points("a", kG1Bytes, p.a_count);
  p.b_g1 = c.points("b_g1", kG1Bytes, p.b_g1_count);
  p.b_g2 = c.points("b_g2", kG2Bytes, p.b_g2_count);
  c.expect_end("b_g2");
  return s;
}

// Sets the layout's views of the verifying key and ic, given the bytes from `base_offset` on.
void set_views(Sections& s, ByteView bytes, std::uint64_t base_offset) {
  const auto view = [&](const Extent& e) { return bytes.subspan(e.offset - base_offset, e.bytes); };
  ParamsLayout& p = s.layout;
  p.alpha_g1 = view(s.alpha_g1);
  p.beta_g1 = view(s.beta_g1);
  p.beta_g2 = view(s.beta_g2);
  p.gamma_g2 = view(s.gamma_g2);
  p.delta_g1 = view(s.delta_g1);
  p.delta_g2 = view(s.delta_g2);
  p.ic = view(s.ic);
}

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

ParamsFile ParamsFile::read(ByteSource source, std::uint64_t piece_points) {
  if (piece_points == 0) throw std::invalid_argument("ParamsFile::read: piece_points is 0");
  ParamsFile f;
  f.piece_points_ = piece_points;
  f.name_ = source.name();
  const ByteView bytes = source.bytes();
  const auto read_count = [&](std::uint64_t at, std::span<std::byte> out) {
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), out.size(), out.begin());
  };
  Sections s = find_sections(bytes.size(), f.name_, read_count);
  set_views(s, bytes, 0);
  check_counts(s.layout, f.name_);
  f.layout_ = s.layout;
  f.source_ = std::move(source);  // a ByteSource's bytes stay where they are when it moves
  return f;
}

ParamsFile ParamsFile::open(const std::filesystem::path& path, std::uint64_t piece_points) {
  if (piece_points == 0) throw std::invalid_argument("ParamsFile::open: piece_points is 0");
  ParamsFile f;
  auto file = std::make_shared<const RegularFile>(path);
  f.name_ = file->name();
  const auto read_count = [&](std::uint64_t at, std::span<std::byte> out) { file->read(at, out); };
  Sections s = find_sections(file->size(), f.name_, read_count);
  check_counts(s.layout, f.name_);
  // The verifying key and ic are contiguous from offset 0: one read, kept (a few KiB; 31 KiB of
  // ic for PoRep's 328 inputs).
  f.head_.resize(s.ic.offset + s.ic.bytes);
  file->read(0, f.head_);
  set_views(s, f.head_, 0);  // a moved vector keeps its buffer, so the views survive moving f
  f.layout_ = s.layout;
  f.file_ = std::move(file);
  f.piece_points_ = piece_points;
  return f;
}

template <CurveParams C>
void ParamsFile::decode(const Extent& where, std::span<msm::Base<C>> out, PointCheck check, ThreadPool& pool,
                        std::string_view what) const {
  constexpr std::uint64_t kBytes = zcash::kUncompressedBytes<C>;
  if (where.bytes % kBytes != 0 || where.bytes / kBytes != out.size()) {
    throw std::invalid_argument(
        detail::concat("ParamsFile::decode: ", where.bytes, " bytes are not ", out.size(), " points of ", kBytes, " bytes"));
  }
  if (!file_) {
    decode_query<C>(source_->bytes().subspan(where.offset, where.bytes), out, check, pool, name_, what);
    return;
  }
  for_each_piece(where, kBytes, [&](std::uint64_t first, ByteView raw) {
    decode_query<C>(raw, out.subspan(first, raw.size() / kBytes), check, pool, name_, what, first);
  });
}

void ParamsFile::for_each_piece(const Extent& where, std::uint64_t point_bytes,
                                const std::function<void(std::uint64_t, ByteView)>& piece_fn) const {
  const std::uint64_t count = where.bytes / point_bytes;
  const std::uint64_t piece = std::min<std::uint64_t>(piece_points_, std::max<std::uint64_t>(count, 1));
  if (!file_) {
    const ByteView all = source_->bytes().subspan(where.offset, where.bytes);
    for (std::uint64_t first = 0; first < count; first += piece) {
      piece_fn(first, all.subspan(first * point_bytes, std::min(piece, count - first) * point_bytes));
    }
    return;
  }
  // Two pieces: the caller handles one while this thread's helper reads the next, so the read
  // (page cache or disk) hides behind the decode, whichever is slower sets the pace.
  // A piece is read by kReadThreads preads at once: one thread's copy out of the page cache
  // (~3.5 GB/s on the device machine, measured as a streamed key_load's pace) is slower than
  // the pool's decode of the piece before.
  constexpr std::uint64_t kReadThreads = 4;
  std::array<std::vector<std::byte>, 2> buffers;
  const auto read_piece = [&](std::uint64_t first, std::vector<std::byte>& buffer) {
    const std::uint64_t n = std::min(piece, count - first);
    buffer.resize(n * point_bytes);
    const std::uint64_t part = (n + kReadThreads - 1) / kReadThreads * point_bytes;
    const auto read_part = [&](std::uint64_t k) {
      const std::uint64_t at = k * part;
      if (at < buffer.size()) {
        file_->read(where.offset + first * point_bytes + at,
                    std::span<std::byte>(buffer).subspan(at, std::min(part, buffer.size() - at)));
      }
    };
    std::array<std::future<void>, kReadThreads - 1> others;
    for (std::uint64_t k = 1; k < kReadThreads; ++k) others[k - 1] = std::async(std::launch::async, read_part, k);
    read_part(0);
    for (auto& f : others) f.get();  // rethrows a failed read
  };
  file_->advise_sequential();
  std::future<void> next;  // declared after the buffers: destroyed (waited for) first
  if (count > 0) next = std::async(std::launch::async, read_piece, 0, std::ref(buffers[0]));
  for (std::uint64_t first = 0, k = 0; first < count; first += piece, ++k) {
    next.get();
    std::vector<std::byte>& current = buffers[k % 2];
    if (first + piece < count) next = std::async(std::launch::async, read_piece, first + piece, std::ref(buffers[(k + 1) % 2]));
    piece_fn(first, current);
  }
}

template <CurveParams C>
void ParamsFile::stream(const Extent& where, std::array<std::span<msm::Base<C>>, 2> buffers, PointCheck check,
                        ThreadPool& pool, std::string_view what, const PieceSink<C>& sink) const {
  constexpr std::uint64_t kBytes = zcash::kUncompressedBytes<C>;
  if (where.bytes % kBytes != 0) {
    throw std::invalid_argument(detail::concat("ParamsFile::stream: ", where.bytes, " bytes are not points of ", kBytes, " bytes"));
  }
  const std::uint64_t count = where.bytes / kBytes;
  const std::uint64_t piece = std::min<std::uint64_t>(piece_points_, count);
  if (buffers[0].size() < piece || buffers[1].size() < piece) {
    throw std::invalid_argument(detail::concat("ParamsFile::stream: buffers of ", buffers[0].size(), " and ",
                                               buffers[1].size(), " points; a piece is ", piece));
  }
  std::uint64_t k = 0;
  for_each_piece(where, kBytes, [&](std::uint64_t first, ByteView raw) {
    const std::span<msm::Base<C>> out = buffers[k++ % 2].first(raw.size() / kBytes);
    decode_query<C>(raw, out, check, pool, name_, what, first);
    sink(first, out);
  });
}

template void ParamsFile::decode<bls12_381::G1>(const Extent&, std::span<msm::Base<bls12_381::G1>>, PointCheck,
                                                ThreadPool&, std::string_view) const;
template void ParamsFile::decode<bls12_381::G2>(const Extent&, std::span<msm::Base<bls12_381::G2>>, PointCheck,
                                                ThreadPool&, std::string_view) const;
template void ParamsFile::stream<bls12_381::G1>(const Extent&, std::array<std::span<msm::Base<bls12_381::G1>>, 2>,
                                                PointCheck, ThreadPool&, std::string_view,
                                                const PieceSink<bls12_381::G1>&) const;
template void ParamsFile::stream<bls12_381::G2>(const Extent&, std::array<std::span<msm::Base<bls12_381::G2>>, 2>,
                                                PointCheck, ThreadPool&, std::string_view,
                                                const PieceSink<bls12_381::G2>&) const;

template <CurveParams C>
void decode_query(ByteView raw, std::span<msm::Base<C>> out, PointCheck check, ThreadPool& pool, std::string_view file,
                  std::string_view what, std::uint64_t index_base) {
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
    format_fail(file, what, "[", index_base + *bad, "]: ", to_string(decode(*bad, p)));
  }
}

template void decode_query<bls12_381::G1>(ByteView, std::span<msm::Base<bls12_381::G1>>, PointCheck, ThreadPool&,
                                          std::string_view, std::string_view, std::uint64_t);
template void decode_query<bls12_381::G2>(ByteView, std::span<msm::Base<bls12_381::G2>>, PointCheck, ThreadPool&,
                                          std::string_view, std::string_view, std::uint64_t);

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
