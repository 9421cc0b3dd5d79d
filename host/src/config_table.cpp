// The host's configuration keys (config_table.hpp). To add one: a Config field and an
// entry here; `zkpipe --help`, the errors and the defaults follow, and the README test
// (tests/host/readme_config_test.cpp) says how to regenerate the README's table.
#include <zkpipe/host/config_table.hpp>

#include <zkpipe/host/byte_size.hpp>
#include "container_limits.hpp"
#include <zkpipe/sdk/parse.hpp>

#include <limits>

namespace zkp::host {

namespace {

constexpr uint32_t kMaxWorkersPerDevice = 1024;
constexpr uint32_t kMaxSynthesisThreads = 4096;
constexpr uint32_t kMaxDeviceRetries = 64;
constexpr uint32_t kMaxWatchdogMs = 24u * 3600 * 1000;  // a day

// An integer in [min, max]; the meaning ends with the range unless max is unbounded.
HostOption integer(const char* key, const char* default_text, const MachineDefault* machine,
                   uint32_t Config::*field, uint32_t min, uint32_t max, std::string meaning) {
  if (max != std::numeric_limits<uint32_t>::max()) {
    meaning += " (" + std::to_string(min) + ".." + std::to_string(max) + ")";
  }
  return {key, default_text, machine, sdk::integer_expected(min, max),
          [field, min, max](Config& c, const std::string& text) {
            const auto v = sdk::parse_u64(text, min, max);
            if (v) c.*field = static_cast<uint32_t>(*v);
            return v.has_value();
          },
          std::move(meaning)};
}

// true or false (also 1/0, yes/no, on/off); the meaning ends with "(true/false)".
HostOption flag(const char* key, const char* default_text, bool Config::*field, std::string meaning) {
  return {key, default_text, nullptr, sdk::kBoolExpected,
          [field](Config& c, const std::string& text) {
            const auto v = sdk::parse_bool(text);
            if (v) c.*field = *v;
            return v.has_value();
          },
          std::move(meaning) + " (true/false)"};
}

HostOption plugin(const char* key, const char* default_text, std::string Config::*field, std::string meaning) {
  return {key, default_text, nullptr, "a plugin name or path",
          [field](Config& c, const std::string& text) {
            if (text.empty()) return false;
            c.*field = text;
            return true;
          },
          std::move(meaning)};
}

// Both read the cgroup's limits (container_limits.hpp), so a container gets its own share.
const MachineDefault kHardwareThreads{"hardware threads, within the affinity mask and the cgroup CPU quota",
                                      [] { return std::to_string(default_synthesis_threads()); },
                                      [] { return std::to_string(default_synthesis_threads()); }};

const MachineDefault kHalfOfRam{"half of RAM or of the cgroup memory limit",
                                [] { return std::to_string(default_budget_bytes()); },
                                [] { return format_bytes(default_budget_bytes()); }};

}  // namespace

uint32_t default_synthesis_threads() { return this_machine_defaults().synthesis_threads; }

uint64_t default_budget_bytes() { return this_machine_defaults().budget_bytes; }

const std::vector<HostOption>& host_options() {
  static const std::vector<HostOption> options{
      plugin("prover", "cpu", &Config::prover,
             "prover plugin: a short name NAME (libzkp_prover_NAME.so on the plugin path) or a path to a .so"),
      plugin("pacer", "greedy", &Config::pacer,
             "pacer plugin: a short name NAME (libzkp_pacer_NAME.so) or a path to a .so"),
      {"plugin_path", "", nullptr, "folders separated by ':'",
       [](Config& c, const std::string& text) {
         c.plugin_path = split_path(text);
         return true;
       },
       "folders searched for plugins first, colon-separated; then $ZKPIPE_PLUGIN_PATH, then the folder of "
       "libzkpipe (or of the zkpipe program) and its ../lib/zkpipe and ../lib"},
      integer("workers_per_device", "2", nullptr, &Config::workers_per_device, 1, kMaxWorkersPerDevice,
              "GPU worker threads per device"),
      integer("synthesis_threads", nullptr, &kHardwareThreads, &Config::synthesis_threads, 1,
              kMaxSynthesisThreads, "CPU threads that synthesize partitions"),
      {"budget", nullptr, &kHalfOfRam, "a byte size above 0 such as 64GiB, 512 MiB, 2GB or 1073741824",
       [](Config& c, const std::string& text) {
         const auto bytes = parse_byte_size(text);
         if (!bytes || *bytes == 0) return false;
         c.budget_bytes = *bytes;
         return true;
       },
       "host memory budget for synthesized partitions: bytes, or with a suffix KiB/MiB/GiB/TiB (1024) or "
       "KB/MB/GB/TB (1000). A partition is admitted only when the budget can grant its key's "
       "synthesis_bytes; a key whose partition can never fit is refused at load"},
      {"queue", "per-device", nullptr, "per-device or shared",
       [](Config& c, const std::string& text) {
         if (text != "per-device" && text != "shared") return false;
         c.queue = text == "shared" ? QueueMode::shared : QueueMode::per_device;
         return true;
       },
       "GPU queue: per-device (a pinned partition waits for its device; an unpinned one joins the "
       "least-loaded device's queue when its synthesis is done) or shared (one queue; a worker takes the "
       "first partition that is unpinned or pinned to its device)"},
      flag("self_check", "true", &Config::self_check,
           "verify every proof before delivering it, when the prover can verify and did not already "
           "(ZKP_PROVE_OUTPUT_VERIFIED); an invalid proof fails its partition"),
      flag("worker_overlap", "true", &Config::worker_overlap,
           "a worker holding a started proof starts the next partition queued for its device (when no worker "
           "there is idle) before finishing the first, so the epilogue overlaps the next proof's device work; "
           "false measures without"),
      integer("device_retries", "2", nullptr, &Config::device_retries, 0, kMaxDeviceRetries,
              "a device that reports a device error (or its device lost) takes no more unpinned work while "
              "another device is usable (with isolation = process: until its process is restarted); a "
              "partition that fails on a device with a device error or out of memory is queued again, this "
              "many times at most: for a device it has not failed on (unpinned jobs, gpu_index -1), while "
              "pinned partitions fail with that error; with isolation = process a failed device's process "
              "is replaced, so the retry may go to the same device once it is back, pinned partitions too"),
      {"log_level", "info", nullptr, "trace, debug, info, warn, error or off",
       [](Config& c, const std::string& text) {
         const auto level = parse_log_level(text);
         if (level) c.log_level = *level;
         return level.has_value();
       },
       "trace, debug, info, warn, error or off"},
      {"log_format", "text", nullptr, "text or json",
       [](Config& c, const std::string& text) {
         const auto format = parse_log_format(text);
         if (format) c.log_format = *format;
         return format.has_value();
       },
       "how the process's log lines look on stderr: text ([time] [zkpipe] [level] message) or json (one object "
       "per line: time, level, logger, message, and job, partition, gpu_index, key when the message names "
       "them). The logger is the process's: json holds for every host in it from then on, and text leaves "
       "the format as it is (so `zkpipe serve`'s serve.log_format = json stays). Lines sent to a caller's "
       "zkp_host_set_log_sink callback are not formatted"},
      integer("status_every", "10", nullptr, &Config::status_every, 0, std::numeric_limits<uint32_t>::max(),
              "admissions between pacer status lines in the log; 0: never"),
      integer("admission_watchdog_ms", "30000", nullptr, &Config::admission_watchdog_ms, 0, kMaxWatchdogMs,
              "when partitions are pending, the budget could grant the next and the pacer has admitted nothing "
              "for max(this, 20 x its last interval between admissions), log a warning with the pacer's status "
              "line, once per stall, and count it in the stats (admission_stalls); 0: off"),
      integer("watchdog_floor_ms", "0", nullptr, &Config::watchdog_floor_ms, 0, kMaxWatchdogMs,
              "the partition watchdog: a partition on a device (from prove_start until prove_finish returns) for "
              "max(this, 10 x the median gpu_duration of its key's last 64 proofs) is declared hung: the log says "
              "so and its device is quarantined (no unpinned work while another device is usable); the partition "
              "fails with ZKP_ERR_DEVICE, retried on another device as device_retries allows, when the prover "
              "returns; 0: off"),
      {"isolation", "thread", nullptr, "thread or process",
       [](Config& c, const std::string& text) {
         if (text != "thread" && text != "process") return false;
         c.isolation = text == "process" ? Isolation::process : Isolation::thread;
         return true;
       },
       "where the prover runs: thread (on the host's threads; a crash ends the process) or process (each device "
       "in a zkpipe-device process of its own, inputs and proofs through shared memory; one that dies, or that the "
       "partition watchdog kills, or whose prover reports its device lost, fails only its partitions in flight, "
       "retried as device_retries allows, and is restarted with its keys, its device then back in service)"},
      {"isolation_executable", "", nullptr, "a path",
       [](Config& c, const std::string& text) {
         c.isolation_executable = text;
         return true;
       },
       "zkpipe-device for isolation = process; empty: the one beside the zkpipe program or libzkpipe.so"},
      {"isolation_synthesis", "inline", nullptr, "inline or ahead",
       [](Config& c, const std::string& text) {
         if (text != "inline" && text != "ahead") return false;
         c.isolation_synthesize_ahead = text == "ahead";
         return true;
       },
       "with isolation = process, where a witness is synthesized: inline (by the device process on its proving "
       "thread, right before the proof) or ahead (by a device process on its synthesis threads, into the "
       "partition's shared memory when the host's synthesis stage takes it, then proved as a caller synthesis on any "
       "device; needs a prover with synthesize_into). inline is the default: on an H200 ahead measured 0.38-0.48x "
       "inline's proofs/s (docs/RELIABILITY.md)"},
  };
  return options;
}

const std::vector<PluginSection>& plugin_sections() {
  static const std::vector<PluginSection> sections{
      {"prover", &Config::prover_options,
       "an option for the prover plugin (or KEY in section [prover]); see `zkpipe plugins`"},
      {"pacer", &Config::pacer_options,
       "an option for the pacer plugin (or KEY in section [pacer]); see `zkpipe plugins`"},
      {"serve", &Config::serve_options,
       "an option for `zkpipe serve` (or KEY in section [serve]), declared by serve itself: see its table "
       "(`zkpipe serve --help`); read by no other command or caller"},
  };
  return sections;
}

const HostOption* find_host_option(std::string_view key) {
  for (const HostOption& o : host_options()) {
    if (key == o.key) return &o;
  }
  return nullptr;
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

}  // namespace zkp::host
