// The sweep as one self-contained SVG file (no scripts, fonts or links): two panels over the
// sweep points in plan order, proofs/s on the left and p50/p99 latency (ms) on the right, each
// with axes, ticks, labels and a legend. Each series is a <polyline> whose id names it
// ("throughput", "p50", "p99"), so a test can find them.
#pragma once

#include "bench/report.hpp"

#include <string>
#include <vector>

namespace zkp::cli::bench {

std::string format_svg(const BenchInfo& info, const std::vector<PointResult>& results);

}  // namespace zkp::cli::bench
