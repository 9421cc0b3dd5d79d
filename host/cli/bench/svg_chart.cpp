#include "bench/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace zkp::cli::bench {

namespace {

// Layout in SVG user units: three panels side by side, margins wide enough for tick labels.
constexpr int kPanels = 3;
constexpr double kPanelWidth = 420, kPanelHeight = 300, kMarginLeft = 60, kMarginBottom = 60, kMarginTop = 50;
constexpr double kWidth = kPanels * kPanelWidth, kHeight = kPanelHeight;
constexpr double kPlotWidth = kPanelWidth - kMarginLeft - 20, kPlotHeight = kPanelHeight - kMarginTop - kMarginBottom;
constexpr int kYTicks = 5, kTimeTicks = 5;
// Device colours, cycled past the sixth device.
constexpr const char* kDeviceColours[] = {"#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f"};
constexpr double kNsPerMs = 1e6;
constexpr double kP50 = 50.0, kP99 = 99.0;

struct Series {
  const char* id;
  const char* label;
  const char* colour;
  std::vector<double> values;
};

template <typename... A>
void append(std::string& out, const char* format, A... args) {
  char text[512];
  std::snprintf(text, sizeof text, format, args...);
  out += text;
}

std::string escaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// (snprintf, not "w" + std::to_string(..): GCC 12's -Wrestrict false positive on that concatenation.)
std::string point_label(const Point& p) {
  std::string out;
  append(out, "w%u s%u f%u", p.workers_per_device, p.synthesis_threads, p.in_flight);
  return out;
}

// A round axis from 0 over `largest`: the step is 1, 2, 2.5 or 5 times a power of ten, so each
// of the kYTicks labels is a short number (2, 4, 6 ... not 2.09, 4.18 ...).
struct Axis {
  double top;
  double step;
};
Axis round_axis(double largest, int ticks) {
  if (!(largest > 0)) largest = 1;
  const double raw = largest / ticks;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * power;
  for (const double m : {1.0, 2.0, 2.5, 5.0}) {
    if (m * power >= raw * (1 - 1e-9)) {
      step = m * power;
      break;
    }
  }
  return {step * ticks, step};
}

// A tick value as a short plain number (never "1.56e+03"): as many decimals as the step needs.
std::string tick_text(double v, double step) {
  int decimals = 0;
  while (decimals < 6 && std::fabs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6) ++decimals;
  std::string out;
  append(out, "%.*f", decimals, v);
  return out;
}

// The frame, y ticks from 0 to top_value in steps of `step`, the panel's title and y label.
void frame(std::string& out, double left, const char* title, const char* y_label, Axis axis) {
  const double top_value = axis.top;
  const double x0 = left + kMarginLeft, y0 = kMarginTop + kPlotHeight;
  append(out, "<text x=\"%.1f\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">%s</text>\n", left + kPanelWidth / 2,
         title);
  append(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n", x0,
         kMarginTop, kPlotWidth, kPlotHeight);
  for (int t = 0; t <= kYTicks; ++t) {
    const double v = top_value * t / kYTicks, y = y0 - kPlotHeight * t / kYTicks;
    append(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0, y, x0 + kPlotWidth, y);
    append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%s</text>\n", x0 - 4, y + 4,
           tick_text(v, axis.step).c_str());
  }
  append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n",
         left + 14, kMarginTop + kPlotHeight / 2, left + 14, kMarginTop + kPlotHeight / 2, y_label);
}

// One panel at x offset `left`: frame, y ticks from 0 to the largest value, one x tick per
// point, the series, a legend.
void panel(std::string& out, double left, const char* title, const char* y_label, const std::vector<Point>& points,
           const std::vector<Series>& series) {
  double top_value = 0;
  for (const Series& s : series) {
    for (double v : s.values) top_value = std::max(top_value, v);
  }
  const Axis axis = round_axis(top_value, kYTicks);
  top_value = axis.top;
  const double x0 = left + kMarginLeft, y0 = kMarginTop + kPlotHeight;
  const std::size_t n = points.size();
  auto x_at = [&](std::size_t i) { return x0 + (n <= 1 ? kPlotWidth / 2 : kPlotWidth * static_cast<double>(i) / static_cast<double>(n - 1)); };
  auto y_at = [&](double v) { return y0 - kPlotHeight * v / top_value; };

  frame(out, left, title, y_label, axis);
  for (std::size_t i = 0; i < n; ++i) {
    append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n", x_at(i), y0 + 14,
           point_label(points[i]).c_str());
  }
  append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">"
              "sweep point (w workers/device, s synthesis threads, f jobs in flight)</text>\n",
         x0 + kPlotWidth / 2, y0 + 34);
  for (std::size_t k = 0; k < series.size(); ++k) {
    const Series& s = series[k];
    // Markers only: each sweep point is a configuration of its own, and a line between two of
    // them would read as a trend that no run measured.
    append(out, "<g id=\"%s\" fill=\"%s\">\n", s.id, s.colour);
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      append(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>%s: %.4g</title></circle>\n", x_at(i),
             y_at(s.values[i]), s.label, s.values[i]);
    }
    out += "</g>\n";
    const double ly = kMarginTop + 12 + 14 * static_cast<double>(k);
    append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"%s\">%s</text>\n", x0 + 8, ly, s.colour, s.label);
  }
}

// Busy share of each device against seconds since the bench started; y from 0 to at least 1
// (one device fully busy), higher when workers overlapped.
void busy_panel(std::string& out, double left, const std::vector<PointResult>& results) {
  std::vector<const BusySample*> samples;
  std::size_t devices = 0;
  double top_value = 1, end_s = 0;
  for (const PointResult& r : results) {
    for (const BusySample& s : r.busy_samples) {
      samples.push_back(&s);
      devices = std::max(devices, s.share.size());
      end_s = std::max(end_s, s.t_s);
      for (double v : s.share) top_value = std::max(top_value, v);
    }
  }
  // A device's share sums its workers' (two workers both busy all along: 2), so the axis
  // reaches past 1 where workers overlapped; the label says so.
  const Axis axis = round_axis(top_value, kYTicks);
  top_value = axis.top;
  frame(out, left, "Device busy over time", "busy (1 = one worker busy all the time)", axis);
  const double x0 = left + kMarginLeft, y0 = kMarginTop + kPlotHeight;
  if (end_s <= 0) end_s = 1;
  const Axis time_axis = round_axis(end_s, kTimeTicks);
  end_s = time_axis.top;
  auto x_at = [&](double t) { return x0 + kPlotWidth * t / end_s; };
  auto y_at = [&](double v) { return y0 - kPlotHeight * v / top_value; };
  for (int t = 0; t <= kTimeTicks; ++t) {
    const double s = end_s * t / kTimeTicks;
    append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n", x_at(s), y0 + 16,
           tick_text(s, time_axis.step).c_str());
  }
  append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">seconds since the bench started</text>\n",
         x0 + kPlotWidth / 2, y0 + 34);
  if (samples.empty()) {
    append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">no busy samples</text>\n",
           x0 + kPlotWidth / 2, kMarginTop + kPlotHeight / 2);
    return;
  }
  constexpr std::size_t kColours = sizeof kDeviceColours / sizeof kDeviceColours[0];
  for (std::size_t d = 0; d < devices; ++d) {
    const char* colour = kDeviceColours[d % kColours];
    append(out, "<polyline id=\"busy-d%zu\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", d, colour);
    bool first = true;
    for (const BusySample* s : samples) {
      if (d >= s->share.size()) continue;
      append(out, "%s%.1f,%.1f", first ? "" : " ", x_at(s->t_s), y_at(s->share[d]));
      first = false;
    }
    out += "\"/>\n";
    append(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"%s\">device %zu</text>\n", x0 + 8,
           kMarginTop + 12 + 14 * static_cast<double>(d), colour, d);
  }
}

}  // namespace

std::string format_svg(const BenchInfo& info, const std::vector<PointResult>& results) {
  std::vector<Point> points;
  Series rate{"throughput", "proofs/s", "#1f77b4", {}};
  Series p50{"p50", "p50 latency", "#2ca02c", {}};
  Series p99{"p99", "p99 latency", "#d62728", {}};
  for (const PointResult& r : results) {
    points.push_back(r.point);
    rate.values.push_back(proofs_per_second(r));
    p50.values.push_back(static_cast<double>(nearest_rank(r.latency_ns, kP50)) / kNsPerMs);
    p99.values.push_back(static_cast<double>(nearest_rank(r.latency_ns, kP99)) / kNsPerMs);
  }
  std::string out;
  append(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
              "font-family=\"sans-serif\">\n",
         kWidth, kHeight, kWidth, kHeight);
  out.append("<title>zkpipe bench: ").append(escaped(info.prover)).append(" on ").append(escaped(info.target));
  out.append(", ").append(escaped(info.key)).append("</title>\n");
  append(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", kWidth, kHeight);
  panel(out, 0, "Throughput", "proofs/s", points, {rate});
  panel(out, kPanelWidth, "Latency (submit to proof)", "ms", points, {p50, p99});
  busy_panel(out, 2 * kPanelWidth, results);
  return out + "</svg>\n";
}

}  // namespace zkp::cli::bench
