// bellperson's Groth16 parameter file (Filecoin's *.params; bellperson src/groth16/params.rs,
// verifying_key.rs), read as it lies on disk:
//
//   vk    alpha_g1 G1 | beta_g1 G1 | beta_g2 G2 | gamma_g2 G2 | delta_g1 G1 | delta_g2 G2
//         u32 n_ic | n_ic × G1                       (ic: one per input, input 0 the constant one)
//   then  h, l, a, b_g1 (G1) and b_g2 (G2), each   u32 n | n × point
//
// Counts are big-endian; points are zcash uncompressed (core/ec/zcash_encoding.hpp: G1 96 bytes,
// G2 192), no padding. A 32 GiB PoRep file is ~44 GiB, so ParamsFile::read only finds the
// sections (byte views into the mapped file) and checks that the counts fit together; the
// points are decoded later, section by section, into memory the caller chooses (decode_query).
//
// Structure checks in read(), beyond "the counts fit the file exactly" (bellperson's generator,
// generator.rs, fixes all of them): ic holds at least input 0; h holds m − 1 points for a
// power-of-two domain m; the variables are ic + l, and a, b_g1 hold subsets of them; b_g1 and
// b_g2 hold the same variables.
#pragma once

#include <cstdint>
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
#include "core/msm/msm.hpp"

namespace zkp {
class ThreadPool;  // core/util/thread_pool.hpp
}

namespace zkp::bellperson {

// Byte views into the file, nothing decoded. Each query view holds exactly count × point bytes.
struct ParamsLayout {
  ByteView alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2;  // 96 / 192 bytes each
  ByteView ic, h, l, a, b_g1, b_g2;                                   // packed points
  std::uint64_t ic_count = 0, h_count = 0, l_count = 0, a_count = 0, b_g1_count = 0, b_g2_count = 0;

  // Inputs plus aux: the length of a full assignment.
  std::uint64_t num_variables() const { return ic_count + l_count; }
};

class ParamsFile {
 public:
  // Finds the sections of `source` and checks the structure (above). Throws FormatError
  // "<file>: <section>: <what is wrong>", e.g. "p.params: h: truncated: 7 points need 672 bytes
  // at offset 1268, only 100 left (572 missing)". Takes ownership of the source; the layout's
  // views live as long as this object (and survive moving it). Immutable afterwards: any number
  // of threads may read the layout and decode from it at once.
  static ParamsFile read(ByteSource source);

  const std::string& name() const { return source_.name(); }
  const ParamsLayout& layout() const { return layout_; }

 private:
  ParamsFile(ByteSource source, const ParamsLayout& layout) : source_(std::move(source)), layout_(layout) {}

  ByteSource source_;
  ParamsLayout layout_;
};

// Decodes `raw`, packed uncompressed points of group C (bls12_381::G1 or G2), into out, which
// must hold exactly raw.size() / point size elements (std::invalid_argument otherwise). `out`
// may be any memory, a pinned staging buffer included: no second copy of the query is made.
// Each point is checked as `check` says, and a point at infinity is refused in every case
// (bellperson's reader refuses it in h, l, a, b_g1, b_g2, and the Base layout could not tell
// it from the pair (0, 0)). Runs on `pool`. On failure throws FormatError
// "<file>: <what>[<index>]: <reason>" for the first bad index; `out` is then partly written.
template <CurveParams C>
void decode_query(ByteView raw, std::span<msm::Base<C>> out, PointCheck check, ThreadPool& pool, std::string_view file,
                  std::string_view what);

extern template void decode_query<bls12_381::G1>(ByteView, std::span<msm::Base<bls12_381::G1>>, PointCheck, ThreadPool&,
                                                 std::string_view, std::string_view);
extern template void decode_query<bls12_381::G2>(ByteView, std::span<msm::Base<bls12_381::G2>>, PointCheck, ThreadPool&,
                                                 std::string_view, std::string_view);

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
