#include "core/formats/point_validator.hpp"

#include "core/formats/error.hpp"

namespace zkp {

void validate_points(const PointValidator& validate, const PointBatch& batch,
                     std::string_view file) {
  if (!validate || batch.count == 0) return;
  const std::optional<std::size_t> bad = validate(batch);
  if (bad) {
    format_fail(file, batch.what, ": point ", *bad, " of ", batch.count, " is not a valid ",
                curve_info(batch.curve).name, batch.group == PointGroup::g1 ? " G1" : " G2",
                " point (off the curve, outside the prime-order subgroup, or a coordinate >= q)");
  }
}

}  // namespace zkp
