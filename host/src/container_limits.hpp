// Container-aware defaults for synthesis_threads and budget: what the machine has, narrowed by
// the process's CPU affinity and by its cgroup's limits, so a host in a container with 2 GiB
// and 1.5 CPUs does not size itself for the whole machine (and get OOM-killed or throttled).
//
//   cgroup v2  /proc/self/cgroup's "0::PATH"; memory.max and cpu.max ("QUOTA PERIOD" or
//              "max PERIOD") in MOUNT/PATH and each folder above it up to MOUNT (a parent's
//              limit binds its children too), the tightest wins
//   cgroup v1  "N:memory:PATH" and "N:cpu,cpuacct:PATH"; memory.limit_in_bytes under
//              MOUNT/memory/PATH, cpu.cfs_quota_us / cpu.cfs_period_us under MOUNT/cpu/PATH
//              (or cpu,cpuacct), the same walk up; -1 or a limit past 2^62 is no limit
//
// A folder that /proc/self/cgroup names but that is not under MOUNT (a container that sees its
// host's paths) is read at MOUNT itself, the container's own cgroup. A file that is missing is
// no limit; one that does not parse is no limit too, and the reason says so (never a crash, never
// a guess). The paths are parameters so tests read fake trees.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace zkp::host {

struct CgroupFiles {
  std::filesystem::path proc_self_cgroup = "/proc/self/cgroup";
  std::filesystem::path mount = "/sys/fs/cgroup";
};

struct ContainerLimits {
  std::optional<uint64_t> memory_bytes;  // the tightest memory limit; nullopt: none
  std::optional<double> cpus;            // the tightest CPU quota in CPUs (1.5); nullopt: none
  std::string memory_reason;             // where memory_bytes came from, or why there is none
  std::string cpu_reason;                // the same for cpus
};

ContainerLimits read_container_limits(const CgroupFiles& files);

// What the machine offers before the cgroup narrows it.
struct MachineFacts {
  uint32_t hardware_threads = 1;           // std::thread::hardware_concurrency (at least 1)
  std::optional<uint32_t> affinity_cpus;   // CPUs in sched_getaffinity's mask
  std::optional<uint64_t> ram_bytes;       // physical memory
};

MachineFacts read_machine_facts();

struct MachineDefaults {
  uint32_t synthesis_threads = 1;
  uint64_t budget_bytes = 0;
  std::string reason;  // one line for the log: each value and what bound it
};

// synthesis_threads: the hardware threads, at most the affinity mask's CPUs and the CPU quota
// rounded up (a 1.5-CPU quota runs 2 threads, each throttled to 3/4, rather than leave half a
// CPU unused; the JDK's container support rounds up the same way). budget: half of the smaller
// of RAM and the memory limit (half leaves the rest to the process's own heap, the proving
// keys and the page cache, the rule the host had before cgroups); 1 GiB when neither is known.
MachineDefaults machine_defaults(const MachineFacts& machine, const ContainerLimits& limits);

// machine_defaults of this process (read_machine_facts, read_container_limits({})).
MachineDefaults this_machine_defaults();

}  // namespace zkp::host
