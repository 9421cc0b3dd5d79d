// The sweep as one self-contained SVG file (no scripts, fonts or links): two panels over the
// sweep points in plan order, proofs/s and p50/p99 latency (ms), then a third over the run's
// time: each device's busy share (busy_samples of every point, one axis from the bench's
// start), each with axes, round ticks (steps of 1, 2, 2.5 or 5 times a power of ten, written
// as plain numbers), labels and a legend. The sweep panels' series are markers, one per point,
// in a <g> whose id names it ("throughput", "p50", "p99"): the points are separate
// configurations, not joined. Each device's busy share over time is a <polyline> ("busy-d0",
// "busy-d1", ...); its axis counts workers (1 = one worker busy all along). With no samples
// the third panel says so and has no busy series.
#pragma once

#include "bench/report.hpp"

#include <string>
#include <vector>

namespace zkp::cli::bench {

std::string format_svg(const BenchInfo& info, const std::vector<PointResult>& results);

}  // namespace zkp::cli::bench
