// How `zkpipe bench` shows that it is working, on stderr: on a terminal a bar redrawn in
// place with \r; otherwise (a log, CI) nothing until a point finishes, then one plain line
// per point, so a captured log has no control characters and one line per result.
#pragma once

#include "bench/stats.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace zkp::cli::bench {

// The bar's text (without the \r and the erase-to-end): the bar, the point and its settings,
// the proofs done of the point's total ("3/4 proofs", or "3 proofs" for a duration), and once
// some of the run is done, the share done and the time left at the pace so far ("40%, about
// 12 s left"). `elapsed_s`: seconds since the bench's first point started.
std::string progress_line(double points_finished, std::size_t points, std::size_t point_index, const Point& point,
                          uint64_t done, uint64_t proofs_per_point, double elapsed_s);

class Progress {
 public:
  // `terminal`: draw the bar (the caller passes isatty(stderr)). `proofs_per_point` 0 means
  // the points run for a duration, so the bar counts points only.
  Progress(bool terminal, std::size_t points, uint64_t proofs_per_point);

  // Called from one thread (the bench's main thread) after each measured proof; `elapsed_s`
  // since the first point started (the caller's clock).
  void proof_done(std::size_t point_index, const Point& point, uint64_t done, double elapsed_s);
  void point_done(std::size_t point_index, const PointResult& result);
  // Ends the bar's line so what follows starts on a fresh one.
  void finish();

 private:
  void draw(double points_finished, std::size_t point_index, const Point& point, uint64_t done, double elapsed_s);

  bool terminal_;
  std::size_t points_;
  uint64_t proofs_per_point_;
  bool drawn_ = false;
  double last_elapsed_s_ = 0;
};

}  // namespace zkp::cli::bench
