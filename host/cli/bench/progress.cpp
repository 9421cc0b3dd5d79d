#include "bench/progress.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace zkp::cli::bench {

namespace {
constexpr std::size_t kBarWidth = 30;
constexpr double kP50 = 50.0, kP99 = 99.0, kNsPerMs = 1e6;
}  // namespace

Progress::Progress(bool terminal, std::size_t points, uint64_t proofs_per_point)
    : terminal_(terminal), points_(points), proofs_per_point_(proofs_per_point) {}

std::string progress_line(double points_finished, std::size_t points, std::size_t point_index, const Point& point,
                          uint64_t done, uint64_t proofs_per_point, double elapsed_s) {
  const double fraction = std::clamp(points_finished / static_cast<double>(points == 0 ? 1 : points), 0.0, 1.0);
  const auto filled = std::min(static_cast<std::size_t>(fraction * kBarWidth), kBarWidth);
  const std::string bar = std::string(filled, '#') + std::string(kBarWidth - filled, ' ');
  char text[256];
  std::snprintf(text, sizeof text, "[%s] point %zu/%zu (workers %u, synthesis threads %u, in flight %u): ", bar.c_str(),
                point_index + 1, points, point.workers_per_device, point.synthesis_threads, point.in_flight);
  std::string out = text;
  if (proofs_per_point > 0) {
    std::snprintf(text, sizeof text, "%llu/%llu proofs", static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(proofs_per_point));
  } else {
    std::snprintf(text, sizeof text, "%llu proofs", static_cast<unsigned long long>(done));
  }
  out += text;
  if (fraction > 0 && elapsed_s > 0) {
    const double left_s = elapsed_s / fraction * (1 - fraction);
    std::snprintf(text, sizeof text, "; %.0f%%, about %.0f s left", fraction * 100, left_s);
    out += text;
  }
  return out;
}

void Progress::draw(double points_finished, std::size_t point_index, const Point& point, uint64_t done, double elapsed_s) {
  std::fprintf(stderr, "\r%s\033[K",
               progress_line(points_finished, points_, point_index, point, done, proofs_per_point_, elapsed_s).c_str());
  std::fflush(stderr);
  drawn_ = true;
  last_elapsed_s_ = elapsed_s;
}

void Progress::proof_done(std::size_t point_index, const Point& point, uint64_t done, double elapsed_s) {
  if (!terminal_) return;
  // Finished points plus this point's share (unknown for a duration, so none).
  double finished = static_cast<double>(point_index);
  if (proofs_per_point_ > 0) finished += static_cast<double>(done) / static_cast<double>(proofs_per_point_);
  draw(finished, point_index, point, done, elapsed_s);
}

void Progress::point_done(std::size_t point_index, const PointResult& r) {
  if (terminal_) {
    draw(static_cast<double>(point_index + 1), point_index, r.point, r.latency_ns.size(), last_elapsed_s_);
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
