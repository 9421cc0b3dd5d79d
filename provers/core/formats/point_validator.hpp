// The hook through which curve-point validation plugs into the parsers.
//
// The formats layer checks structure only: sizes, counts, ranges of integers, primes. Whether a
// 64-byte blob is a point on the curve and in the prime-order subgroup needs field and curve
// arithmetic, which lives in ff/ and ec/ — a layer above this one. So the parsers take an
// optional PointValidator and hand it every point they expose, one batch per section, and turn
// its verdict into a FormatError that names the file, the section and the point's index.
//
// Contract for an implementation (to be provided by ec/, e.g. `ec::make_point_validator()`):
// - Input: `count` affine points packed back to back in `points`: G1 = x|y, G2 = x.c0|x.c1|y.c0|
//   y.c1, each coordinate CurveInfo::n8q bytes little-endian, in the `encoding` given (the zkey
//   stores Montgomery form, JSON holds standard form). All-zero bytes encode the point at
//   infinity (snarkjs's convention), which is valid.
// - Check: every coordinate < q, the point is on the curve, and it is in the r-order subgroup.
// - Return the index of the first invalid point, or std::nullopt if all are valid. Do not throw
//   for invalid points (the parser words the message); throwing is for the validator's own
//   failures.
// - It may run the batch in parallel; it must not keep `points` after returning.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"

namespace zkp {

enum class PointGroup { g1, g2 };
enum class CoordEncoding { montgomery, standard };

struct PointBatch {
  Curve curve;
  PointGroup group;
  CoordEncoding encoding;
  ByteView points;
  std::size_t count;
  std::string_view what;  // e.g. "section 5 (A)", for the validator's own logging only
};

// Empty (the default) means "structure only": no point is checked.
using PointValidator = std::function<std::optional<std::size_t>(const PointBatch&)>;

// Runs `validate` (if set) over a batch and throws FormatError("<file>: <what>: point <i> is not
// a valid <curve> <group> point ...") on a rejection.
void validate_points(const PointValidator& validate, const PointBatch& batch,
                     std::string_view file);

}  // namespace zkp
