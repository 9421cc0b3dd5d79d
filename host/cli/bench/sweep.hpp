// The sweep plan of `zkpipe bench`: every combination of the concurrency settings it varies,
// in the order they are measured (workers outermost, then synthesis threads, then jobs in
// flight), so rows of one worker count sit together in the table and the chart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zkp::cli::bench {

// One measured configuration.
struct Point {
  uint32_t workers_per_device = 1;  // the host's workers_per_device
  uint32_t synthesis_threads = 1;   // the host's synthesis_threads
  uint32_t in_flight = 1;           // jobs (of one partition each) the bench keeps submitted
};

// Parses "1,2,4" (each a whole number in [1, max]) for the flag named `flag`; throws
// UsageError naming the flag and the bad element.
std::vector<uint32_t> parse_list(const std::string& flag, const std::string& text, uint32_t max);

// The cartesian product, workers outermost.
std::vector<Point> make_plan(const std::vector<uint32_t>& workers, const std::vector<uint32_t>& synthesis_threads,
                             const std::vector<uint32_t>& in_flight);

}  // namespace zkp::cli::bench
