#include "container_limits.hpp"

#include <zkpipe/host/byte_size.hpp>

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

namespace zkp::host {

namespace {

namespace fs = std::filesystem;

// cgroup v1 writes "no limit" as the largest page-aligned counter (9223372036854771712 on
// x86-64), not as a word; anything this large is no limit.
constexpr uint64_t kV1NoLimit = 1ull << 62;
constexpr uint64_t kUnknownBudget = 1ull << 30;  // neither RAM nor a limit known: 1 GiB

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::optional<uint64_t> parse_u64(std::string_view text) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

std::optional<int64_t> parse_i64(std::string_view text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

// One file's verdict: a limit, no limit, or text that does not parse.
struct Reading {
  std::optional<double> value;  // bytes or CPUs
  std::string garbage;          // non-empty: the file's text, which did not parse
};

// The folders from MOUNT/relative up to MOUNT, innermost first; MOUNT alone when that folder
// is not there.
std::vector<fs::path> folders(const fs::path& mount, const std::string& cgroup_path) {
  const fs::path relative = fs::path(cgroup_path).relative_path();
  fs::path dir = mount / relative;
  std::error_code ec;
  if (relative.empty() || !fs::is_directory(dir, ec)) return {mount};
  std::vector<fs::path> out;
  for (fs::path rel = relative; !rel.empty(); rel = rel.parent_path()) out.push_back(mount / rel);
  out.push_back(mount);
  return out;
}

// Reads `file` in each folder with `parse` and keeps the smallest limit, with its reason.
template <class Parse>
void tightest(const std::vector<fs::path>& dirs, const char* file, const char* what, Parse parse,
              std::optional<double>& out, std::string& reason, bool bytes) {
  std::string garbage_note;
  for (const fs::path& dir : dirs) {
    const fs::path path = dir / file;
    const auto text = read_text(path);
    if (!text) continue;
    const Reading r = parse(*text);
    if (!r.garbage.empty()) {
      garbage_note = "; " + path.string() + " is '" + r.garbage.substr(0, 40) + "', not a " + what + " (ignored)";
      continue;
    }
    if (r.value && (!out || *r.value < *out)) {
      out = r.value;
      std::ostringstream s;
      if (bytes) {
        s << format_bytes(static_cast<uint64_t>(*r.value));
      } else {
        s << *r.value << " CPUs";
      }
      reason = s.str() + " from " + path.string();
    }
  }
  if (!out) reason = std::string("no cgroup ") + what;
  reason += garbage_note;
}

Reading v2_memory(const std::string& text) {
  if (text == "max") return {};
  if (const auto v = parse_u64(text)) return {static_cast<double>(*v), {}};
  return {std::nullopt, text.empty() ? "(empty)" : text};
}

Reading v2_cpu(const std::string& text) {
  const size_t space = text.find(' ');
  const std::string quota = text.substr(0, space);
  const auto period = space == std::string::npos ? std::nullopt : parse_u64(text.substr(space + 1));
  if (!period || *period == 0) return {std::nullopt, text.empty() ? "(empty)" : text};
  if (quota == "max") return {};
  const auto q = parse_u64(quota);
  if (!q || *q == 0) return {std::nullopt, text};
  return {static_cast<double>(*q) / static_cast<double>(*period), {}};
}

Reading v1_memory(const std::string& text) {
  const auto v = parse_u64(text);
  if (!v) return {std::nullopt, text.empty() ? "(empty)" : text};
  if (*v >= kV1NoLimit) return {};
  return {static_cast<double>(*v), {}};
}

// cgroup v1 keeps quota and period in two files: this reads the pair in one folder.
Reading v1_cpu_folder(const fs::path& dir, bool& present) {
  const auto quota_text = read_text(dir / "cpu.cfs_quota_us");
  const auto period_text = read_text(dir / "cpu.cfs_period_us");
  present = quota_text.has_value();
  if (!quota_text) return {};
  const auto quota = parse_i64(*quota_text);
  if (!quota) return {std::nullopt, *quota_text};
  if (*quota < 0) return {};  // -1: no quota
  const auto period = period_text ? parse_u64(*period_text) : std::nullopt;
  if (!period || *period == 0 || *quota == 0) {
    return {std::nullopt, *quota_text + " / " + (period_text ? *period_text : std::string("(no cpu.cfs_period_us)"))};
  }
  return {static_cast<double>(*quota) / static_cast<double>(*period), {}};
}

// /proc/self/cgroup: the v2 path ("0::PATH") and the v1 paths of the memory and cpu controllers.
struct ProcCgroup {
  std::optional<std::string> unified;
  std::optional<std::string> memory;
  std::optional<std::string> cpu;
};

ProcCgroup parse_proc_cgroup(const std::string& text) {
  ProcCgroup out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t a = line.find(':');
    const size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    // ",memory," in ",cpu,memory,": a whole name. Appended piece by piece: GCC 12 warns
    // (-Wrestrict, a false positive) on "," + substr + ",".
    std::string controllers(1, ',');
    controllers.append(line, a + 1, b - a - 1);
    controllers.push_back(',');
    const std::string path = line.substr(b + 1);
    if (controllers == ",,") out.unified = path;
    if (controllers.find(",memory,") != std::string::npos) out.memory = path;
    if (controllers.find(",cpu,") != std::string::npos) out.cpu = path;
  }
  return out;
}

// The v1 mount of the cpu controller: "cpu" or "cpu,cpuacct", whichever the tree has.
fs::path v1_cpu_mount(const fs::path& mount) {
  std::error_code ec;
  if (fs::is_directory(mount / "cpu", ec)) return mount / "cpu";
  return mount / "cpu,cpuacct";
}

}  // namespace

ContainerLimits read_container_limits(const CgroupFiles& files) {
  ContainerLimits out;
  std::optional<double> memory;  // tightest() compares in double, as it does CPUs
  const auto proc = read_text(files.proc_self_cgroup);
  const ProcCgroup cg = parse_proc_cgroup(proc.value_or(""));
  std::error_code ec;
  const bool v2 = fs::exists(files.mount / "cgroup.controllers", ec);
  if (v2) {
    const auto dirs = folders(files.mount, cg.unified.value_or("/"));
    tightest(dirs, "memory.max", "memory limit", v2_memory, memory, out.memory_reason, true);
    tightest(dirs, "cpu.max", "CPU quota", v2_cpu, out.cpus, out.cpu_reason, false);
  } else {
    const auto mem_dirs = folders(files.mount / "memory", cg.memory.value_or("/"));
    tightest(mem_dirs, "memory.limit_in_bytes", "memory limit", v1_memory, memory, out.memory_reason,
             true);
    const fs::path cpu_mount = v1_cpu_mount(files.mount);
    std::string garbage_note;
    for (const fs::path& dir : folders(cpu_mount, cg.cpu.value_or("/"))) {
      bool present = false;
      const Reading r = v1_cpu_folder(dir, present);
      if (!r.garbage.empty()) {
        garbage_note = "; " + (dir / "cpu.cfs_quota_us").string() + " is '" + r.garbage.substr(0, 40) +
                       "', not a CPU quota (ignored)";
      } else if (r.value && (!out.cpus || *r.value < *out.cpus)) {
        out.cpus = r.value;
        std::ostringstream s;
        s << *r.value << " CPUs from " << (dir / "cpu.cfs_quota_us").string();
        out.cpu_reason = s.str();
      }
    }
    if (!out.cpus) out.cpu_reason = "no cgroup CPU quota";
    out.cpu_reason += garbage_note;
  }
  if (memory) out.memory_bytes = static_cast<uint64_t>(*memory);
  return out;
}

MachineFacts read_machine_facts() {
  MachineFacts out;
  out.hardware_threads = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) out.affinity_cpus = static_cast<uint32_t>(CPU_COUNT(&set));
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) out.ram_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  return out;
}

MachineDefaults machine_defaults(const MachineFacts& machine, const ContainerLimits& limits) {
  MachineDefaults out;
  uint32_t threads = std::max(1u, machine.hardware_threads);
  std::string bound = std::to_string(threads) + " hardware threads";
  if (machine.affinity_cpus && *machine.affinity_cpus > 0 && *machine.affinity_cpus < threads) {
    threads = *machine.affinity_cpus;
    bound = std::to_string(threads) + " CPUs in the affinity mask";
  }
  if (limits.cpus) {
    const auto quota = static_cast<uint32_t>(std::max(1.0, std::ceil(*limits.cpus)));
    if (quota < threads) {
      threads = quota;
      bound = "the cgroup CPU quota, rounded up: " + limits.cpu_reason;
    }
  }
  out.synthesis_threads = threads;

  std::optional<uint64_t> memory = machine.ram_bytes;
  std::string memory_bound = machine.ram_bytes ? "half of RAM" : "RAM unknown";
  if (limits.memory_bytes && (!memory || *limits.memory_bytes < *memory)) {
    memory = limits.memory_bytes;
    memory_bound = "half of the cgroup memory limit " + limits.memory_reason;
  }
  out.budget_bytes = memory ? std::max<uint64_t>(1, *memory / 2) : kUnknownBudget;
  out.reason = "synthesis_threads " + std::to_string(out.synthesis_threads) + " (" + bound + "), budget " +
               format_bytes(out.budget_bytes) + " (" + memory_bound + ")";
  if (!limits.cpus) out.reason += "; " + limits.cpu_reason;
  if (!limits.memory_bytes) out.reason += "; " + limits.memory_reason;
  return out;
}

MachineDefaults this_machine_defaults() { return machine_defaults(read_machine_facts(), read_container_limits({})); }

}  // namespace zkp::host
