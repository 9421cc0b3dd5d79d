#include "bench/progress.hpp"

#include <cstdio>
#include <string>

namespace zkp::cli::bench {

namespace {
constexpr std::size_t kBarWidth = 30;
constexpr double kP50 = 50.0, kP99 = 99.0, kNsPerMs = 1e6;
}  // namespace

Progress::Progress(bool terminal, std::size_t points, uint64_t proofs_per_point)
    : terminal_(terminal), points_(points), proofs_per_point_(proofs_per_point) {}

void Progress::draw(double points_finished, std::size_t point_index, const Point& point, uint64_t done) {
  const double fraction = points_finished / static_cast<double>(points_ == 0 ? 1 : points_);
  const auto filled = static_cast<std::size_t>(fraction * kBarWidth);
  const std::string bar = std::string(std::min(filled, kBarWidth), '#') + std::string(kBarWidth - std::min(filled, kBarWidth), ' ');
  std::fprintf(stderr, "\r[%s] point %zu/%zu (workers %u, synthesis threads %u, in flight %u): %llu proof(s)\033[K",
               bar.c_str(), point_index + 1, points_, point.workers_per_device, point.synthesis_threads,
               point.in_flight, static_cast<unsigned long long>(done));
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::proof_done(std::size_t point_index, const Point& point, uint64_t done) {
  if (!terminal_) return;
  // Finished points plus this point's share (unknown for a duration, so none).
  double finished = static_cast<double>(point_index);
  if (proofs_per_point_ > 0) finished += static_cast<double>(done) / static_cast<double>(proofs_per_point_);
  draw(finished, point_index, point, done);
}

void Progress::point_done(std::size_t point_index, const PointResult& r) {
  if (terminal_) {
    draw(static_cast<double>(point_index + 1), point_index, r.point, r.latency_ns.size());
    return;
  }
  std::fprintf(stderr, "point %zu/%zu: workers %u, synthesis threads %u, in flight %u: %zu proof(s), %llu failed, "
               "%.3f proofs/s, p50 %.1f ms, p99 %.1f ms\n",
               point_index + 1, points_, r.point.workers_per_device, r.point.synthesis_threads, r.point.in_flight,
               r.latency_ns.size(), static_cast<unsigned long long>(r.failed), proofs_per_second(r),
               static_cast<double>(nearest_rank(r.latency_ns, kP50)) / kNsPerMs,
               static_cast<double>(nearest_rank(r.latency_ns, kP99)) / kNsPerMs);
}

void Progress::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
}

}  // namespace zkp::cli::bench
