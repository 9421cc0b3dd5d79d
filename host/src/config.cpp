#include <zkpipe/host/config.hpp>

#include <zkpipe/host/byte_size.hpp>
#include <zkpipe/sdk/error.hpp>

#include <boost/program_options/errors.hpp>
#include <boost/program_options/parsers.hpp>
#include <boost/program_options/value_semantic.hpp>

#include <unistd.h>

#include <charconv>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string_view>
#include <functional>
#include <map>
#include <thread>

namespace zkp::host {

namespace po = boost::program_options;
using sdk::Error;

namespace {

constexpr uint32_t kMaxWorkersPerDevice = 1024;
constexpr uint32_t kMaxSynthesisThreads = 4096;
constexpr uint32_t kMaxDeviceRetries = 64;
constexpr const char* kProverSection = "prover.";
constexpr const char* kPacerSection = "pacer.";

// One key=value as written, with where it was written for error messages.
struct Entry {
  std::string key;
  std::string value;
  std::string origin;  // "path:line" or "override 'k=v'"
};

[[noreturn]] void bad_value(const Entry& e, const std::string& expected) {
  throw Error(ZKP_ERR_INVALID_ARGUMENT, e.origin + ": " + e.key + " = '" + e.value +
                                            "' is invalid: expected " + expected);
}

uint32_t parse_u32(const Entry& e, uint32_t min, uint32_t max) {
  uint32_t out = 0;
  const char* end = e.value.data() + e.value.size();
  auto [ptr, ec] = std::from_chars(e.value.data(), end, out);
  if (e.value.empty() || ec != std::errc() || ptr != end || out < min || out > max) {
    bad_value(e, "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return out;
}

bool parse_bool(const Entry& e) {
  const std::string& v = e.value;
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  bad_value(e, "true or false");
}

std::vector<std::string> split_path(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t colon = text.find(':', start);
    const size_t end = colon == std::string::npos ? text.size() : colon;
    if (end > start) out.push_back(text.substr(start, end - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return out;
}

// Replaces the value of `key` if present (later wins), else appends.
void set_plugin_option(std::vector<PluginOption>& options, std::string key, std::string value) {
  for (PluginOption& o : options) {
    if (o.key == key) {
      o.value = std::move(value);
      return;
    }
  }
  options.push_back({std::move(key), std::move(value)});
}

using Setter = std::function<void(Config&, const Entry&)>;

const std::map<std::string, Setter>& setters() {
  static const std::map<std::string, Setter> table = {
      {"prover",
       [](Config& c, const Entry& e) {
         if (e.value.empty()) bad_value(e, "a plugin name or path");
         c.prover = e.value;
       }},
      {"pacer",
       [](Config& c, const Entry& e) {
         if (e.value.empty()) bad_value(e, "a plugin name or path");
         c.pacer = e.value;
       }},
      {"plugin_path", [](Config& c, const Entry& e) { c.plugin_path = split_path(e.value); }},
      {"workers_per_device",
       [](Config& c, const Entry& e) { c.workers_per_device = parse_u32(e, 1, kMaxWorkersPerDevice); }},
      {"synthesis_threads",
       [](Config& c, const Entry& e) { c.synthesis_threads = parse_u32(e, 1, kMaxSynthesisThreads); }},
      {"budget",
       [](Config& c, const Entry& e) {
         auto bytes = parse_byte_size(e.value);
         if (!bytes || *bytes == 0) {
           bad_value(e, "a byte size above 0 such as 64GiB, 512 MiB, 2GB or 1073741824");
         }
         c.budget_bytes = *bytes;
       }},
      {"queue",
       [](Config& c, const Entry& e) {
         if (e.value == "per-device") {
           c.queue = QueueMode::per_device;
         } else if (e.value == "shared") {
           c.queue = QueueMode::shared;
         } else {
           bad_value(e, "per-device or shared");
         }
       }},
      {"self_check", [](Config& c, const Entry& e) { c.self_check = parse_bool(e); }},
      {"worker_overlap", [](Config& c, const Entry& e) { c.worker_overlap = parse_bool(e); }},
      {"device_retries",
       [](Config& c, const Entry& e) { c.device_retries = parse_u32(e, 0, kMaxDeviceRetries); }},
      {"log_level",
       [](Config& c, const Entry& e) {
         auto level = parse_log_level(e.value);
         if (!level) bad_value(e, "trace, debug, info, warn, error or off");
         c.log_level = *level;
       }},
      {"status_every",
       [](Config& c, const Entry& e) { c.status_every = parse_u32(e, 0, UINT32_MAX); }},
  };
  return table;
}

std::string known_keys() {
  std::string out;
  for (const auto& [key, setter] : setters()) out += (out.empty() ? "" : ", ") + key;
  return out;
}

void apply(Config& config, const Entry& e) {
  if (e.key.starts_with(kProverSection) && e.key.size() > std::strlen(kProverSection)) {
    set_plugin_option(config.prover_options, e.key.substr(std::strlen(kProverSection)), e.value);
    return;
  }
  if (e.key.starts_with(kPacerSection) && e.key.size() > std::strlen(kPacerSection)) {
    set_plugin_option(config.pacer_options, e.key.substr(std::strlen(kPacerSection)), e.value);
    return;
  }
  auto it = setters().find(e.key);
  if (it == setters().end()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT,
                e.origin + ": unknown key '" + e.key + "' (known keys: " + known_keys() +
                    "; plugin options go in [prover] or [pacer], or prover.KEY / pacer.KEY)");
  }
  it->second(config, e);
}

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const size_t last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

// The line of every key=value in an INI file, in file order, as program_options reads
// it ('#' starts a comment anywhere; "[name]" opens a section that prefixes "name.").
std::vector<std::pair<std::string, int>> ini_key_lines(const std::filesystem::path& file) {
  std::vector<std::pair<std::string, int>> out;
  std::ifstream in(file);
  std::string line;
  std::string section;
  for (int number = 1; std::getline(in, line); ++number) {
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      section = trim(line.substr(1, line.size() - 2)) + ".";
      continue;
    }
    const size_t eq = line.find('=');
    if (eq != std::string::npos) out.emplace_back(section + trim(line.substr(0, eq)), number);
  }
  return out;
}

std::vector<Entry> read_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw Error(ZKP_ERR_NOT_FOUND, "config file '" + file.string() + "' does not exist");
  }
  std::ifstream in(file);
  if (!in) throw Error(ZKP_ERR_NOT_FOUND, "config file '" + file.string() + "' cannot be read");

  po::parsed_options parsed(&config_options());
  try {
    parsed = po::parse_config_file(in, config_options(), /*allow_unregistered=*/true);
  } catch (const po::error& e) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, file.string() + ": " + e.what());
  }

  const auto lines = ini_key_lines(file);
  size_t cursor = 0;
  std::vector<Entry> out;
  for (const po::option& option : parsed.options) {
    std::string origin = file.string();
    for (size_t i = cursor; i < lines.size(); ++i) {
      if (lines[i].first == option.string_key) {
        origin.append(":").append(std::to_string(lines[i].second));  // (GCC 12 -Wrestrict false positive on "x" + string)
        cursor = i + 1;
        break;
      }
    }
    out.push_back({option.string_key, option.value.empty() ? std::string() : option.value.front(),
                   std::move(origin)});
  }
  return out;
}

Entry read_override(const std::string& text) {
  const std::string origin = "override '" + text + "'";
  const size_t eq = text.find('=');
  if (eq == std::string::npos || trim(text.substr(0, eq)).empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, origin + ": expected key=value");
  }
  return {trim(text.substr(0, eq)), trim(text.substr(eq + 1)), origin};
}

}  // namespace

std::vector<zkp_option_t> to_c_options(const std::vector<PluginOption>& options) {
  std::vector<zkp_option_t> out;
  out.reserve(options.size());
  for (const PluginOption& o : options) out.push_back({o.key.c_str(), o.value.c_str()});
  return out;
}

const char* queue_mode_name(QueueMode mode) {
  return mode == QueueMode::shared ? "shared" : "per-device";
}

uint32_t default_synthesis_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

uint64_t default_budget_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 1ull << 30;  // unknowable: 1 GiB, and say so in --help
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size) / 2;
}

const std::vector<ConfigKey>& config_reference() {
  static const std::vector<ConfigKey> keys = [] {
    const std::string threads = std::to_string(default_synthesis_threads());
    const std::string budget = format_bytes(default_budget_bytes());
    return std::vector<ConfigKey>{
        {"prover", "cpu",
         "prover plugin: a short name NAME (libzkp_prover_NAME.so on the plugin path) or a path to a .so"},
        {"pacer", "greedy", "pacer plugin: a short name NAME (libzkp_pacer_NAME.so) or a path to a .so"},
        {"plugin_path", "",
         "folders searched for plugins first, colon-separated; then $ZKPIPE_PLUGIN_PATH, then the folder "
         "of libzkpipe (or of the zkpipe program) and its ../lib/zkpipe and ../lib"},
        {"workers_per_device", "2", "GPU worker threads per device (1..1024)"},
        {"synthesis_threads", threads + " (hardware threads)", "CPU threads that synthesize partitions (1..4096)"},
        {"budget", budget + " (half of physical memory)",
         "host memory budget for synthesized partitions: bytes, or with a suffix KiB/MiB/GiB/TiB (1024) or "
         "KB/MB/GB/TB (1000). A partition is admitted only when the budget can grant its key's "
         "synthesis_bytes; a key whose partition can never fit is refused at load"},
        {"queue", "per-device",
         "GPU queue: per-device (a pinned partition waits for its device; an unpinned one joins the "
         "least-loaded device's queue when its synthesis is done) or shared (one queue; a worker takes "
         "the first partition that is unpinned or pinned to its device)"},
        {"self_check", "true",
         "verify every proof before delivering it, when the prover can verify; an invalid proof fails "
         "its partition (true/false)"},
        {"worker_overlap", "true",
         "a worker that holds a started proof and finds another partition queued for its device (and no "
         "idle worker there) calls prove_start for it before prove_finish for the first, so the epilogue "
         "overlaps the next kernels; it never waits for new work while it holds a proof (true/false)"},
        {"device_retries", "2",
         "a partition of an unpinned job (gpu_index -1) that fails on a device with a device error or "
         "out of memory is queued again for a device it has not failed on, this many times at most "
         "(0..64; 0: never). A device that reports a device error takes no more unpinned work while "
         "another device is usable. Pinned partitions fail with the device's error"},
        {"log_level", "info", "trace, debug, info, warn, error or off"},
        {"status_every", "10", "admissions between pacer status lines in the log; 0: never"},
        {"prover.KEY", "", "an option for the prover plugin (or KEY in section [prover]); see `zkpipe plugins`"},
        {"pacer.KEY", "", "an option for the pacer plugin (or KEY in section [pacer]); see `zkpipe plugins`"},
    };
  }();
  return keys;
}

const po::options_description& config_options() {
  static const po::options_description desc = [] {
    po::options_description d;
    for (const ConfigKey& k : config_reference()) {
      if (std::string_view(k.key).ends_with(".KEY")) continue;  // sections, not keys
      d.add_options()(k.key, po::value<std::string>(), k.meaning);
    }
    return d;
  }();
  return desc;
}

void print_config_reference(std::ostream& out) {
  constexpr size_t kWidth = 78;
  constexpr const char* kIndent = "      ";
  out << "Configuration keys (INI file, or key=value arguments applied after it; later wins):\n";
  for (const ConfigKey& k : config_reference()) {
    out << "  " << k.key << (k.default_text.empty() ? "" : " = " + k.default_text) << "\n";
    std::string line = kIndent;
    std::istringstream words(k.meaning);
    for (std::string word; words >> word;) {
      if (line.size() + word.size() + 1 > kWidth && line.size() > std::strlen(kIndent)) {
        out << line << "\n";
        line = kIndent;
      }
      line += (line.size() > std::strlen(kIndent) ? " " : "") + word;
    }
    out << line << "\n";
  }
}

Config Config::load(const std::optional<std::filesystem::path>& file,
                    std::span<const std::string> overrides) {
  Config config;
  config.synthesis_threads = default_synthesis_threads();
  config.budget_bytes = default_budget_bytes();
  if (file) {
    for (const Entry& e : read_file(*file)) apply(config, e);
  }
  for (const std::string& text : overrides) apply(config, read_override(text));
  return config;
}

}  // namespace zkp::host
