// bellperson's Groth16 parameter file (Filecoin's *.params; bellperson src/groth16/params.rs,
// verifying_key.rs), read as it lies on disk:
//
//   vk    alpha_g1 G1 | beta_g1 G1 | beta_g2 G2 | gamma_g2 G2 | delta_g1 G1 | delta_g2 G2
//         u32 n_ic | n_ic × G1                       (ic: one per input, input 0 the constant one)
//   then  h, l, a, b_g1 (G1) and b_g2 (G2), each   u32 n | n × point
//
// Counts are big-endian; points are zcash uncompressed (core/ec/zcash_encoding.hpp: G1 96 bytes,
// G2 192), no padding. A 32 GiB PoRep file is ~44 GiB: more than a host wants to hold twice. So
// ParamsFile::open reads only the verifying key and the counts, and checks that they fit
// together; each query is streamed from the file later, in pieces a few MiB long, and decoded in
// parallel into memory the caller chooses (ParamsFile::decode), while the next piece is read.
// The decoded bases are the one full copy (reading the whole file first cost 44 GiB more and
// a third of the load time at 2^27). ParamsFile::read does the same over bytes in memory (a
// caller's buffer, tests, the fuzzer).
//
// Structure checks in read(), beyond "the counts fit the file exactly" (bellperson's generator,
// generator.rs, fixes all of them): ic holds at least input 0; h holds m − 1 points for a
// power-of-two domain m; the variables are ic + l, and a, b_g1 hold subsets of them; b_g1 and
// b_g2 hold the same variables.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/encoding.hpp"
#include "core/formats/bytes.hpp"
#include "core/formats/mapped_file.hpp"
#include "core/formats/regular_file.hpp"
#include "core/msm/msm.hpp"

namespace zkp {
class ThreadPool;  // core/util/thread_pool.hpp
}

namespace zkp::bellperson {

// Where a query's packed points lie in the file: exactly count × point bytes from `offset`.
struct Extent {
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};

// The file's sections, nothing decoded. The verifying key's points and ic are byte views held
// by the ParamsFile (a few KiB: read at open); the queries are extents, read when decoded.
struct ParamsLayout {
  ByteView alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2;  // 96 / 192 bytes each
  ByteView ic;                                                        // packed points
  Extent h, l, a, b_g1, b_g2;
  std::uint64_t ic_count = 0, h_count = 0, l_count = 0, a_count = 0, b_g1_count = 0, b_g2_count = 0;

  // Inputs plus aux: the length of a full assignment.
  std::uint64_t num_variables() const { return ic_count + l_count; }
};

class ParamsFile {
 public:
  // The bytes of a query piece read at a time from a file: 1 << 19 points (48 MiB of G1, 96 of
  // G2), two pieces in memory (one decoded while the next is read).
  static constexpr std::uint64_t kPiecePoints = std::uint64_t{1} << 19;

  // Opens the file at `path`, reads its verifying key and counts, and checks the structure
  // (above); the queries stay in the file until decoded. `piece_points` is for tests (pieces
  // smaller than a query). Throws IoError (cannot open, a read error) or FormatError
  // "<file>: <section>: <what is wrong>", e.g. "p.params: h: truncated: 7 points × 96 bytes =
  // 672 bytes from offset 1268, only 100 left (572 missing)", or for a FIFO or a directory.
  static ParamsFile open(const std::filesystem::path& path, std::uint64_t piece_points = kPiecePoints);

  // The same over bytes in memory; takes ownership of the source, and the layout's views live
  // as long as this object (and survive moving it). `piece_points`: stream()'s pieces (tests).
  static ParamsFile read(ByteSource source, std::uint64_t piece_points = kPiecePoints);

  // Decodes the query at `where` (an extent of layout(), `what` its name in messages) into
  // `out`, which must hold exactly where.bytes / point size elements; see decode_query for the
  // checks and errors. A file is read piece by piece; one that shrank since open() throws
  // IoError "… the file shrank while it was read …". Immutable: any number of threads may read
  // the layout and decode from one ParamsFile at once.
  template <CurveParams C>
  void decode(const Extent& where, std::span<msm::Base<C>> out, PointCheck check, ThreadPool& pool,
              std::string_view what) const;

  // The same without a destination for the whole query: piece k (piece_points() points, the
  // last one shorter) is decoded, with the same checks and errors, into buffers[k % 2] (the
  // caller's memory, pinned staging say, each holding at least piece_points()), and handed to
  // sink(first, decoded) while piece k + 1 is read from the file. Once sink returns, piece
  // k + 1 is decoded into the other buffer: a sink that copies `decoded` asynchronously must
  // have waited for its copy of piece k − 1 before it returns. For a device key that is never
  // whole in host memory (cuda/prover/streamed_bases.hpp).
  template <CurveParams C>
  using PieceSink = std::function<void(std::uint64_t first, std::span<const msm::Base<C>> decoded)>;
  template <CurveParams C>
  void stream(const Extent& where, std::array<std::span<msm::Base<C>>, 2> buffers, PointCheck check, ThreadPool& pool,
              std::string_view what, const PieceSink<C>& sink) const;
  std::uint64_t piece_points() const { return piece_points_; }

  const std::string& name() const { return name_; }
  const ParamsLayout& layout() const { return layout_; }

 private:
  ParamsFile() = default;

  // Calls piece(first, raw) for each piece of the query at `where` in order, raw being its
  // point_bytes-sized points (a view of the source, or of a buffer read from the file while the
  // previous piece is handed over).
  void for_each_piece(const Extent& where, std::uint64_t point_bytes,
                      const std::function<void(std::uint64_t first, ByteView raw)>& piece) const;

  std::string name_;
  std::optional<ByteSource> source_;         // read(): the whole file
  std::shared_ptr<const RegularFile> file_;  // open(): the file, read when a query is decoded
  std::vector<std::byte> head_;              // open(): the verifying key and ic, which the layout views
  std::uint64_t piece_points_ = kPiecePoints;
  ParamsLayout layout_;
};

extern template void ParamsFile::decode<bls12_381::G1>(const Extent&, std::span<msm::Base<bls12_381::G1>>, PointCheck,
                                                       ThreadPool&, std::string_view) const;
extern template void ParamsFile::decode<bls12_381::G2>(const Extent&, std::span<msm::Base<bls12_381::G2>>, PointCheck,
                                                       ThreadPool&, std::string_view) const;
extern template void ParamsFile::stream<bls12_381::G1>(const Extent&, std::array<std::span<msm::Base<bls12_381::G1>>, 2>,
                                                       PointCheck, ThreadPool&, std::string_view,
                                                       const PieceSink<bls12_381::G1>&) const;
extern template void ParamsFile::stream<bls12_381::G2>(const Extent&, std::array<std::span<msm::Base<bls12_381::G2>>, 2>,
                                                       PointCheck, ThreadPool&, std::string_view,
                                                       const PieceSink<bls12_381::G2>&) const;

// Decodes `raw`, packed uncompressed points of group C (bls12_381::G1 or G2), into out, which
// must hold exactly raw.size() / point size elements (std::invalid_argument otherwise). `out`
// may be any memory, a pinned staging buffer included: no second copy of the query is made.
// Each point is checked as `check` says, and a point at infinity is refused in every case
// (bellperson's reader refuses it in h, l, a, b_g1, b_g2, and the Base layout could not tell
// it from the pair (0, 0)). Runs on `pool`. On failure throws FormatError
// "<file>: <what>[<index>]: <reason>" for the first bad index, counted from `index_base` (the
// index of raw's first point in its query, when raw is one piece of it); `out` is then partly
// written.
template <CurveParams C>
void decode_query(ByteView raw, std::span<msm::Base<C>> out, PointCheck check, ThreadPool& pool, std::string_view file,
                  std::string_view what, std::uint64_t index_base = 0);

extern template void decode_query<bls12_381::G1>(ByteView, std::span<msm::Base<bls12_381::G1>>, PointCheck, ThreadPool&,
                                                 std::string_view, std::string_view, std::uint64_t);
extern template void decode_query<bls12_381::G2>(ByteView, std::span<msm::Base<bls12_381::G2>>, PointCheck, ThreadPool&,
                                                 std::string_view, std::string_view, std::uint64_t);

// The verifying-key part, decoded. Always subgroup-checked (a handful of points). Points at
// infinity are accepted, in ic too, where bellperson's VerifyingKey::read refuses them: an ic
// point is zero when its input's polynomials vanish at τ, a valid key that a verifier can use.
struct VerifyingPoints {
  Affine<bls12_381::G1> alpha_g1, beta_g1, delta_g1;
  Affine<bls12_381::G2> beta_g2, gamma_g2, delta_g2;
  std::vector<Affine<bls12_381::G1>> ic;
};

// Throws FormatError "<file>: <point>: <reason>", the point named as "vk.beta_g2" or "ic[3]".
VerifyingPoints decode_verifying_points(const ParamsFile& file);

}  // namespace zkp::bellperson
