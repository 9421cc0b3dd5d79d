#include "scenario.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace zkp::pacing_sim {

namespace {

struct Entry {
  std::string value;
  int line = 0;
  bool used = false;
};

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

// The key = value lines of one file, consumed by typed getters; leftovers are unknown keys.
class Reader {
 public:
  Reader(const std::string& text, std::string source) : source_(std::move(source)) {
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    while (std::getline(in, raw)) {
      ++line;
      const std::string body = trim(raw.substr(0, raw.find('#')));
      if (body.empty()) continue;
      const auto eq = body.find('=');
      if (eq == std::string::npos) fail(line, "expected 'key = value', got '" + body + "'");
      const std::string key = trim(body.substr(0, eq));
      const std::string value = trim(body.substr(eq + 1));
      if (key.empty()) fail(line, "empty key");
      auto [it, inserted] = entries_.emplace(key, Entry{value, line, false});
      if (!inserted) fail(line, "key '" + key + "' repeats line " + std::to_string(it->second.line));
    }
  }

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw std::runtime_error(source_ + ":" + std::to_string(line) + ": " + what);
  }

  Entry* find(const std::string& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    it->second.used = true;
    return &it->second;
  }

  std::string get_string(const std::string& key, const std::string& fallback) {
    Entry* e = find(key);
    return e != nullptr ? e->value : fallback;
  }

  double get_double(const std::string& key, double fallback, double min, double max) {
    Entry* e = find(key);
    if (e == nullptr) return fallback;
    double v = 0;
    const char* end = e->value.data() + e->value.size();
    auto [ptr, ec] = std::from_chars(e->value.data(), end, v);
    if (ec != std::errc() || ptr != end || !(v >= min && v <= max)) {
      fail(e->line, "'" + key + "' = '" + e->value + "' is not a number in [" + fmt(min) + ", " + fmt(max) + "]");
    }
    return v;
  }

  uint64_t get_u64(const std::string& key, uint64_t fallback, uint64_t min, uint64_t max) {
    Entry* e = find(key);
    if (e == nullptr) return fallback;
    uint64_t v = 0;
    const char* end = e->value.data() + e->value.size();
    auto [ptr, ec] = std::from_chars(e->value.data(), end, v);
    if (ec != std::errc() || ptr != end || v < min || v > max) {
      fail(e->line, "'" + key + "' = '" + e->value + "' is not an integer in [" + std::to_string(min) + ", " +
                        std::to_string(max) + "]");
    }
    return v;
  }

  // Keys "prefix.NAME.FIELD", grouped by NAME in order of first appearance.
  std::vector<std::string> groups(const std::string& prefix) const {
    std::vector<std::pair<int, std::string>> found;
    for (const auto& [key, e] : entries_) {
      if (key.rfind(prefix + ".", 0) != 0) continue;
      const auto parts = split(key.substr(prefix.size() + 1), '.');
      if (parts.size() < 2 || parts[0].empty()) fail(e.line, "expected '" + prefix + ".NAME.FIELD', got '" + key + "'");
      auto it = std::find_if(found.begin(), found.end(), [&](const auto& f) { return f.second == parts[0]; });
      if (it == found.end()) {
        found.emplace_back(e.line, parts[0]);
      } else {
        it->first = std::min(it->first, e.line);
      }
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> names;
    for (const auto& f : found) names.push_back(f.second);
    return names;
  }

  // Every unused "prefix.NAME.*" key as (rest, value), marking them used.
  std::vector<std::pair<std::string, std::string>> take_all(const std::string& prefix) {
    std::vector<std::pair<int, std::pair<std::string, std::string>>> out;
    for (auto& [key, e] : entries_) {
      if (key.rfind(prefix, 0) != 0) continue;
      e.used = true;
      out.push_back({e.line, {key.substr(prefix.size()), e.value}});
    }
    std::sort(out.begin(), out.end());
    std::vector<std::pair<std::string, std::string>> kv;
    for (auto& o : out) kv.push_back(o.second);
    return kv;
  }

  int line_of(const std::string& prefix) const {
    int line = 0;
    for (const auto& [key, e] : entries_) {
      if (key.rfind(prefix, 0) == 0 && (line == 0 || e.line < line)) line = e.line;
    }
    return line;
  }

  void reject_unused() const {
    const Entry* worst = nullptr;
    std::string name;
    for (const auto& [key, e] : entries_) {
      if (!e.used && (worst == nullptr || e.line < worst->line)) {
        worst = &e;
        name = key;
      }
    }
    if (worst != nullptr) fail(worst->line, "unknown key '" + name + "' (scenarios/README.md lists the keys)");
  }

  static std::string fmt(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  }

 private:
  std::map<std::string, Entry> entries_;
  std::string source_;
};

constexpr double kHuge = 1e12;
constexpr uint32_t kMaxCount = 1'000'000;
constexpr uint32_t kMaxDevices = 1024;

PartitionClass read_class(Reader& r, const std::string& prefix, PartitionClass c) {
  c.gib = r.get_double(prefix + "gib", c.gib, 1e-6, kHuge);
  c.gpu_alone_ms = r.get_double(prefix + "gpu_alone_ms", c.gpu_alone_ms, 1e-3, kHuge);
  c.gpu_busy_ms = r.get_double(prefix + "gpu_busy_ms", c.gpu_busy_ms, 1e-3, kHuge);
  c.synthesis_min_s = r.get_double(prefix + "synthesis_min_s", c.synthesis_min_s, 0.0, kHuge);
  c.synthesis_max_s = r.get_double(prefix + "synthesis_max_s", c.synthesis_max_s, 0.0, kHuge);
  c.weight = r.get_double(prefix + "weight", c.weight, 0.0, kHuge);
  if (c.synthesis_min_s > c.synthesis_max_s) {
    r.fail(r.line_of(prefix.empty() ? "synthesis_" : prefix),
           "class '" + c.name + "': synthesis_min_s is above synthesis_max_s");
  }
  return c;
}

ArrivalPhase read_arrival(Reader& r, const std::string& prefix) {
  ArrivalPhase a;
  const std::string kind = r.get_string(prefix + "kind", "bursts");
  if (kind == "bursts") {
    a.kind = ArrivalPhase::Kind::kBursts;
  } else if (kind == "pause") {
    a.kind = ArrivalPhase::Kind::kPause;
  } else if (kind == "poisson") {
    a.kind = ArrivalPhase::Kind::kPoisson;
  } else {
    r.fail(r.line_of(prefix + "kind"), "'" + prefix + "kind' = '" + kind + "' is not bursts, pause or poisson");
  }
  a.jobs = static_cast<uint32_t>(r.get_u64(prefix + "jobs", a.jobs, 1, kMaxCount));
  a.partitions = static_cast<uint32_t>(r.get_u64(prefix + "partitions", a.partitions, 1, kMaxCount));
  a.repeat = static_cast<uint32_t>(r.get_u64(prefix + "repeat", a.repeat, 1, kMaxCount));
  a.every_s = r.get_double(prefix + "every_s", a.every_s, 0.0, kHuge);
  a.seconds = r.get_double(prefix + "seconds", a.seconds, 0.0, kHuge);
  a.mean_gap_s = r.get_double(prefix + "mean_gap_s", a.mean_gap_s, 1e-6, kHuge);
  a.class_name = r.get_string(prefix + "class", "");
  return a;
}

}  // namespace

const PartitionClass& Scenario::class_named(const std::string& name) const {
  for (const auto& c : classes) {
    if (c.name == name) return c;
  }
  throw std::runtime_error(source + ": no partition class '" + name + "'");
}

double Scenario::longest_synthesis_s() const {
  double longest = 0.0;
  for (const auto& c : classes) longest = std::max(longest, c.synthesis_max_s);
  return longest;
}

const std::vector<std::pair<std::string, std::string>>& Scenario::options_for(const std::string& pacer) const {
  static const std::vector<std::pair<std::string, std::string>> kNone;
  for (const auto& p : pacer_options) {
    if (p.pacer == pacer) return p.options;
  }
  return kNone;
}

Scenario parse_scenario(const std::string& text, const std::string& source) {
  Reader r(text, source);
  Scenario s;
  s.source = source;
  s.name = r.get_string("name", source);
  s.description = r.get_string("description", "");
  s.seed = r.get_u64("seed", s.seed, 0, UINT64_MAX);
  s.devices = static_cast<uint32_t>(r.get_u64("devices", s.devices, 1, kMaxDevices));
  s.workers_per_device = static_cast<uint32_t>(r.get_u64("workers_per_device", s.workers_per_device, 1, kMaxDevices));
  s.synthesis_threads = static_cast<uint32_t>(r.get_u64("synthesis_threads", s.synthesis_threads, 0, kMaxCount));
  s.budget_gib = r.get_double("budget_gib", s.budget_gib, 1e-6, kHuge);
  s.pinned_stall_factor = r.get_double("pinned_stall_factor", s.pinned_stall_factor, 1.0, kHuge);
  s.pinned_stall_window_ms = r.get_double("pinned_stall_window_ms", s.pinned_stall_window_ms, 0.0, kHuge);
  s.pinned_prewarm = static_cast<uint32_t>(r.get_u64("pinned_prewarm", s.pinned_prewarm, 0, kMaxCount));
  s.collapse_gpu_intervals = r.get_double("collapse_gpu_intervals", s.collapse_gpu_intervals, 0.0, kHuge);
  s.recovery_window_s = r.get_double("recovery_window_s", s.recovery_window_s, 1.0, kHuge);
  s.recovery_fraction = r.get_double("recovery_fraction", s.recovery_fraction, 0.0, 1.0);
  s.max_time_s = r.get_double("max_time_s", s.max_time_s, 1.0, kHuge);

  PartitionClass defaults = read_class(r, "partition_", PartitionClass{"default"});
  for (const auto& name : r.groups("class")) {
    PartitionClass c = defaults;
    c.name = name;
    s.classes.push_back(read_class(r, "class." + name + ".", c));
  }
  if (s.classes.empty()) s.classes.push_back(defaults);
  for (const auto& c : s.classes) {
    if (c.gib > s.budget_gib) {
      r.fail(r.line_of("budget_gib"), "class '" + c.name + "' needs " + Reader::fmt(c.gib) +
                                          " GiB, more than the whole budget");
    }
  }

  std::vector<std::pair<uint64_t, std::string>> numbered;
  for (const auto& n : r.groups("arrival")) {
    uint64_t index = 0;
    auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), index);
    if (ec != std::errc() || ptr != n.data() + n.size()) {
      r.fail(r.line_of("arrival." + n + "."), "arrival phases are numbered: 'arrival.N.FIELD', got '" + n + "'");
    }
    numbered.emplace_back(index, n);
  }
  std::sort(numbered.begin(), numbered.end());
  for (const auto& [index, n] : numbered) {
    const std::string prefix = "arrival." + n + ".";
    ArrivalPhase a = read_arrival(r, prefix);
    if (!a.class_name.empty()) {
      const bool known = std::any_of(s.classes.begin(), s.classes.end(),
                                     [&](const auto& c) { return c.name == a.class_name; });
      if (!known) r.fail(r.line_of(prefix + "class"), "no partition class '" + a.class_name + "'");
    }
    s.arrivals.push_back(a);
  }
  if (s.arrivals.empty()) r.fail(1, "no arrival phases (arrival.1.kind = ...)");

  for (const auto& n : r.groups("slowdown")) {
    const std::string prefix = "slowdown." + n + ".";
    Slowdown d;
    d.start_s = r.get_double(prefix + "start_s", d.start_s, 0.0, kHuge);
    d.end_s = r.get_double(prefix + "end_s", d.end_s, 0.0, kHuge);
    d.factor = r.get_double(prefix + "factor", d.factor, 1e-6, kHuge);
    d.device = static_cast<int32_t>(r.get_double(prefix + "device", d.device, -1, s.devices - 1.0));
    if (d.end_s <= d.start_s) r.fail(r.line_of(prefix), "slowdown '" + n + "' ends before it starts");
    s.slowdowns.push_back(d);
  }

  s.device_specs.assign(s.devices, DeviceSpec{});
  for (const auto& n : r.groups("device")) {
    uint64_t index = 0;
    auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), index);
    if (ec != std::errc() || ptr != n.data() + n.size() || index >= s.devices) {
      r.fail(r.line_of("device." + n + "."), "'device.N.FIELD' wants N in [0, devices), got '" + n + "'");
    }
    const std::string prefix = "device." + n + ".";
    DeviceSpec& d = s.device_specs[index];
    d.speed = r.get_double(prefix + "speed", d.speed, 1e-6, kHuge);
    d.lost_at_s = r.get_double(prefix + "lost_at_s", d.lost_at_s, 0.0, kHuge);
  }
  if (std::all_of(s.device_specs.begin(), s.device_specs.end(),
                  [](const DeviceSpec& d) { return d.lost_at_s != std::numeric_limits<double>::infinity(); })) {
    r.fail(r.line_of("device."), "every device is lost: the work could never finish");
  }

  for (const auto& name : r.groups("pacer")) {
    s.pacer_options.push_back({name, r.take_all("pacer." + name + ".")});
  }
  for (const auto& p : split(r.get_string("pacers", "pi, greedy, fixed"), ',')) {
    const std::string name = trim(p);
    if (!name.empty()) s.pacers.push_back(name);
  }

  for (const auto& p : split(r.get_string("collapse_exempt", ""), ',')) {
    const std::string name = trim(p);
    if (!name.empty()) s.collapse_exempt.push_back(name);
  }

  s.steady_warmup_s = r.get_double("steady_warmup_s", 2.0 * s.longest_synthesis_s(), 0.0, kHuge);
  r.reject_unused();
  return s;
}

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path);
}

}  // namespace zkp::pacing_sim
