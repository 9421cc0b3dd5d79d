// How `zkpipe bench` shows that it is working, on stderr: on a terminal a bar redrawn in
// place with \r; otherwise (a log, CI) nothing until a point finishes, then one plain line
// per point, so a captured log has no control characters and one line per result.
#pragma once

#include "bench/stats.hpp"

#include <cstddef>
#include <cstdint>

namespace zkp::cli::bench {

class Progress {
 public:
  // `terminal`: draw the bar (the caller passes isatty(stderr)). `proofs_per_point` 0 means
  // the points run for a duration, so the bar counts points only.
  Progress(bool terminal, std::size_t points, uint64_t proofs_per_point);

  // Called from one thread (the bench's main thread) after each measured proof.
  void proof_done(std::size_t point_index, const Point& point, uint64_t done);
  void point_done(std::size_t point_index, const PointResult& result);
  // Ends the bar's line so what follows starts on a fresh one.
  void finish();

 private:
  void draw(double points_finished, std::size_t point_index, const Point& point, uint64_t done);

  bool terminal_;
  std::size_t points_;
  uint64_t proofs_per_point_;
  bool drawn_ = false;
};

}  // namespace zkp::cli::bench
