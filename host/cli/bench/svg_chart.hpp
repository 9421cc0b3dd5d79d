// The sweep as one self-contained SVG file (no scripts, fonts or links): two panels over the
// sweep points in plan order, proofs/s and p50/p99 latency (ms), then a third over the run's
// time: each device's busy share (busy_samples of every point, one axis from the bench's
// start), each with axes, ticks, labels and a legend. Each series is a <polyline> whose id
// names it ("throughput", "p50", "p99", "busy-d0", "busy-d1", ...), so a test can find them;
// with no samples the third panel says so and has no busy series.
#pragma once

#include "bench/report.hpp"

#include <string>
#include <vector>

namespace zkp::cli::bench {

std::string format_svg(const BenchInfo& info, const std::vector<PointResult>& results);

}  // namespace zkp::cli::bench
