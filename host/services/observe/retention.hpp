// What `zkpipe serve` keeps of the work it has done, by count: its memory grows with the jobs
// it proves until these fill, then stays flat (bench_soak, tests/serve, judges a long run only
// past them). No includes, so a benchmark can read them without the server's headers.
#pragma once

#include <cstddef>

namespace zkp::observe {

// Finished jobs whose results a late Await still gets (JobTable's default keep_finished).
inline constexpr std::size_t kKeepFinishedJobs = 4096;
// Completions kept for the dashboard's last 5 minutes (Metrics::kRecentCompletions): at more
// than about 13 partitions a second the oldest of those minutes fall out of it first.
inline constexpr std::size_t kRecentCompletionsKept = 4096;

}  // namespace zkp::observe
