#include "exposition.hpp"

#include <cmath>
#include <cstdio>

namespace zkp::observe {

namespace {

// A sample value: integers exactly (counters of billions stay readable), others in %.9g.
std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 9.0e15) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.9g", v);
  }
  return buf;
}

// HELP text escapes backslash and newline only.
std::string escape_help(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

void append_labels(std::string& out, const Labels& labels) {
  if (labels.empty()) return;
  out += '{';
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) out += ',';
    out += labels[i].first;
    out += "=\"";
    out += escape_label_value(labels[i].second);
    out += '"';
  }
  out += '}';
}

}  // namespace

void Histogram::observe_ns(uint64_t ns) {
  const double s = static_cast<double>(ns) / 1e9;
  ++count_;
  sum_seconds_ += s;
  for (size_t i = 0; i < kBounds.size(); ++i) {
    if (s <= kBounds[i]) {
      ++buckets_[i];
      return;
    }
  }
}

std::string escape_label_value(const std::string& value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

void Exposition::family(const std::string& name, Type type, const std::string& help) {
  out_ += "# HELP ";
  out_ += name;
  out_ += ' ';
  out_ += escape_help(help);
  out_ += "\n# TYPE ";
  out_ += name;
  out_ += ' ';
  out_ += type == Type::counter ? "counter" : type == Type::gauge ? "gauge" : "histogram";
  out_ += "\n";
}

void Exposition::sample(const std::string& name, const Labels& labels, double value) {
  out_ += name;
  append_labels(out_, labels);
  out_ += ' ';
  out_ += number(value);
  out_ += '\n';
}

void Exposition::histogram(const std::string& name, const Labels& labels, const Histogram& h) {
  uint64_t cumulative = 0;
  for (size_t i = 0; i < Histogram::kBounds.size(); ++i) {
    cumulative += h.buckets()[i];
    Labels with_le = labels;
    with_le.emplace_back("le", number(Histogram::kBounds[i]));
    sample(name + "_bucket", with_le, static_cast<double>(cumulative));
  }
  Labels inf = labels;
  inf.emplace_back("le", "+Inf");
  sample(name + "_bucket", inf, static_cast<double>(h.count()));
  sample(name + "_sum", labels, h.sum_seconds());
  sample(name + "_count", labels, static_cast<double>(h.count()));
}

}  // namespace zkp::observe
