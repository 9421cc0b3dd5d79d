#include "timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace zkp::pacing_sim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kWindowS = 10.0;
constexpr double kIntervalClipS = 10.0;  // the interval panel's top; longer gaps are clipped

double sec(uint64_t ns) { return static_cast<double>(ns) / kNsPerS; }

// Averages of one field of the sample step function over [k*bin, (k+1)*bin).
template <class Field>
std::vector<double> bin_average(const std::vector<StateSample>& xs, double bin, size_t bins, double end_s,
                                Field field) {
  std::vector<double> area(bins, 0.0);
  for (size_t i = 0; i < xs.size(); ++i) {
    double a = sec(xs[i].t_ns);
    const double b = i + 1 < xs.size() ? sec(xs[i + 1].t_ns) : end_s;
    const double v = static_cast<double>(field(xs[i]));
    while (a < b) {
      const size_t k = static_cast<size_t>(a / bin);
      if (k >= bins) break;
      const double edge = std::min(b, (static_cast<double>(k) + 1.0) * bin);
      area[k] += v * (edge - a);
      a = edge;
    }
  }
  for (auto& x : area) x /= bin;
  return area;
}

struct Panel {
  std::string title;
  std::vector<const std::vector<double>*> series;  // one per timeline
  double y_max = 1.0;
  std::vector<std::pair<double, std::string>> lines;  // reference lines
};

const char* color(size_t i) {
  static const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  return kColors[i % (sizeof kColors / sizeof kColors[0])];
}

double nice_step(double range, int ticks) {
  const double raw = range / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10.0 * mag;
}

std::string num(double v) {
  constexpr double kWholeAbove = 10.0;  // axis labels: 0.5, 2.5, but 216, not 216.0
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= kWholeAbove ? "%.0f" : "%.1f", v);
  return buf;
}

}  // namespace

double bin_width(double end_s, double points) { return std::max(1.0, std::ceil(end_s / points)); }

Timeline make_timeline(const Scenario& s, const RunTrace& tr, double bin, double end_s) {
  Timeline t;
  t.pacer = tr.pacer;
  t.bin_s = bin;
  const size_t bins = static_cast<size_t>(std::ceil(end_s / bin));
  const auto& xs = tr.samples;
  t.pending = bin_average(xs, bin, bins, end_s, [](const StateSample& x) { return x.pending; });
  t.synthesizing = bin_average(xs, bin, bins, end_s, [](const StateSample& x) { return x.synthesizing; });
  t.waiting = bin_average(xs, bin, bins, end_s, [](const StateSample& x) { return x.waiting; });
  t.proving = bin_average(xs, bin, bins, end_s, [](const StateSample& x) { return x.proving; });
  t.memory_gib = bin_average(xs, bin, bins, end_s,
                             [](const StateSample& x) { return static_cast<double>(x.budget_used) / kBytesPerGiB; });
  t.admissions.assign(bins, 0.0);
  for (uint64_t a : tr.admissions_ns) {
    const size_t k = static_cast<size_t>(sec(a) / bin);
    if (k < bins) t.admissions[k] += 1.0;
  }
  const double workers = static_cast<double>(s.devices) * s.workers_per_device;
  const size_t span = std::max<size_t>(1, static_cast<size_t>(std::llround(kWindowS / bin)));
  for (size_t k = 0; k < bins; ++k) {
    t.t_s.push_back(static_cast<double>(k) * bin);
    const size_t first = k + 1 >= span ? k + 1 - span : 0;
    double busy = 0.0, admitted = 0.0;
    for (size_t j = first; j <= k; ++j) {
      busy += t.proving[j];
      admitted += t.admissions[j];
    }
    const double len = static_cast<double>(k + 1 - first) * bin;
    t.gpu_busy_10s.push_back(busy * bin / len / workers);
    t.interval_10s.push_back(admitted > 0.0 ? std::min(kIntervalClipS, len / admitted) : kNaN);
  }
  return t;
}

void write_csv(std::ostream& out, const std::vector<Timeline>& ts) {
  out << "pacer,t_s,pending,synthesizing,waiting,proving,memory_gib,admissions,gpu_busy_10s,admission_interval_10s\n";
  for (const auto& t : ts) {
    for (size_t k = 0; k < t.t_s.size(); ++k) {
      char line[256];
      std::snprintf(line, sizeof line, "%s,%.0f,%.3f,%.3f,%.3f,%.3f,%.2f,%.0f,%.4f,%s\n", t.pacer.c_str(), t.t_s[k],
                    t.pending[k], t.synthesizing[k], t.waiting[k], t.proving[k], t.memory_gib[k], t.admissions[k],
                    t.gpu_busy_10s[k], std::isnan(t.interval_10s[k]) ? "" : num(t.interval_10s[k]).c_str());
      out << line;
    }
  }
}

void write_svg(std::ostream& out, const Scenario& s, const std::vector<Timeline>& ts, double pi_target) {
  if (ts.empty()) return;
  constexpr double kWidth = 1100, kLeft = 70, kRight = 130, kTop = 56, kPanelH = 150, kGap = 46;
  const double plot_w = kWidth - kLeft - kRight;

  std::vector<Panel> panels(4);
  panels[0].title = "GPU queue depth (waiting, bin mean)";
  panels[1].title = "Admission interval (s, mean over the last 10 s; clipped at 10 s)";
  panels[2].title = "GPU busy (fraction of workers, last 10 s)";
  panels[3].title = "Host memory reserved (GiB)";
  double end_s = 0.0;
  for (const auto& t : ts) {
    panels[0].series.push_back(&t.waiting);
    panels[1].series.push_back(&t.interval_10s);
    panels[2].series.push_back(&t.gpu_busy_10s);
    panels[3].series.push_back(&t.memory_gib);
    end_s = std::max(end_s, t.t_s.empty() ? 0.0 : t.t_s.back() + t.bin_s);
  }
  for (auto& p : panels) {
    double m = 0.0;
    for (const auto* v : p.series) {
      for (double x : *v) {
        if (!std::isnan(x)) m = std::max(m, x);
      }
    }
    p.y_max = m > 0.0 ? m * 1.05 : 1.0;
  }
  if (!std::isnan(pi_target)) {
    panels[0].lines.push_back({pi_target, "pi target"});
    panels[0].y_max = std::max(panels[0].y_max, pi_target * 1.2);
  }
  panels[1].y_max = kIntervalClipS;
  panels[2].y_max = 1.0;
  panels[3].lines.push_back({s.budget_gib, "budget"});
  panels[3].y_max = std::max(panels[3].y_max, s.budget_gib * 1.08);

  const double height = kTop + panels.size() * (kPanelH + kGap) + 10;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out << "<text x=\"" << kLeft << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">zkpipe pacing simulator: "
      << s.name << "</text>\n";
  out << "<text x=\"" << kLeft << "\" y=\"40\" fill=\"#555\">virtual time in minutes; shaded: GPU slowdown; "
      << "simulated pipeline, not a measurement of hardware</text>\n";

  const double tick = nice_step(end_s / 60.0, 10);
  auto x_of = [&](double t) { return kLeft + plot_w * t / end_s; };
  for (size_t pi = 0; pi < panels.size(); ++pi) {
    const Panel& p = panels[pi];
    const double top = kTop + pi * (kPanelH + kGap) + 14;
    auto y_of = [&](double v) { return top + kPanelH - kPanelH * std::min(v, p.y_max) / p.y_max; };
    out << "<text x=\"" << kLeft << "\" y=\"" << top - 4 << "\" font-weight=\"bold\">" << p.title << "</text>\n";
    for (const auto& d : s.slowdowns) {
      out << "<rect x=\"" << x_of(d.start_s) << "\" y=\"" << top << "\" width=\""
          << x_of(std::min(d.end_s, end_s)) - x_of(d.start_s) << "\" height=\"" << kPanelH
          << "\" fill=\"#f2e6c9\"/>\n";
    }
    out << "<rect x=\"" << kLeft << "\" y=\"" << top << "\" width=\"" << plot_w << "\" height=\"" << kPanelH
        << "\" fill=\"none\" stroke=\"#888\"/>\n";
    for (double f : {0.0, 0.5, 1.0}) {
      const double v = p.y_max * f;
      out << "<text x=\"" << kLeft - 6 << "\" y=\"" << y_of(v) + 4 << "\" text-anchor=\"end\">" << num(v)
          << "</text>\n";
      out << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + plot_w << "\" y1=\"" << y_of(v) << "\" y2=\"" << y_of(v)
          << "\" stroke=\"#eee\"/>\n";
    }
    for (double m = 0.0; m * 60.0 <= end_s; m += tick) {
      out << "<text x=\"" << x_of(m * 60.0) << "\" y=\"" << top + kPanelH + 13 << "\" text-anchor=\"middle\">" << m
          << "</text>\n";
    }
    for (const auto& [v, label] : p.lines) {
      out << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + plot_w << "\" y1=\"" << y_of(v) << "\" y2=\"" << y_of(v)
          << "\" stroke=\"#444\" stroke-dasharray=\"5,4\"/>\n";
      out << "<text x=\"" << kLeft + plot_w + 4 << "\" y=\"" << y_of(v) + 4 << "\" fill=\"#444\">" << label
          << "</text>\n";
    }
    for (size_t si = 0; si < p.series.size(); ++si) {
      const auto& v = *p.series[si];
      const auto& t = ts[si];
      std::string points;
      auto flush = [&] {
        if (!points.empty()) {
          out << "<polyline fill=\"none\" stroke=\"" << color(si) << "\" stroke-width=\"1.2\" stroke-opacity=\"0.85\" "
              << "points=\"" << points << "\"/>\n";
        }
        points.clear();
      };
      for (size_t k = 0; k < v.size(); ++k) {
        if (std::isnan(v[k])) {
          flush();
          continue;
        }
        char pt[48];
        std::snprintf(pt, sizeof pt, "%.1f,%.1f ", x_of(t.t_s[k] + t.bin_s / 2), y_of(v[k]));
        points += pt;
      }
      flush();
    }
  }
  for (size_t si = 0; si < ts.size(); ++si) {
    const double y = kTop + 20 + si * 18;
    out << "<rect x=\"" << kLeft + plot_w + 12 << "\" y=\"" << y - 9 << "\" width=\"14\" height=\"10\" fill=\""
        << color(si) << "\"/>\n";
    out << "<text x=\"" << kLeft + plot_w + 30 << "\" y=\"" << y << "\">" << ts[si].pacer << "</text>\n";
  }
  out << "</svg>\n";
}

}  // namespace zkp::pacing_sim
