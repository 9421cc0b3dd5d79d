// zkpipe run: pushes J jobs of N partitions through the configured prover and pacer,
// prints one line per partition as it completes, and a summary. Without --witness the
// partitions carry no witness (ZKP_WITNESS_NONE): that exercises the pipeline with the sim
// prover (or a backend that accepts it). With --witness W (and --key K) every partition proves
// W for real, on any prover, and a line says whether the host verified it (self_check).
#include "services/command/command.hpp"
#include "services/command/options.hpp"

#include <zkpipe/host/byte_size.hpp>
#include <zkpipe/host/clock.hpp>
#include <zkpipe/host/host.hpp>
#include <zkpipe/sdk/error.hpp>

#include <cstdio>
#include <iostream>
#include <map>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "zkpipe run [--config FILE] --partitions N [--jobs J] [--gpu I] [--key PATH] [--witness WTNS] [key=value ...]";
constexpr double kNsPerMs = 1e6;
constexpr double kNsPerS = 1e9;

double ms(uint64_t ns) { return static_cast<double>(ns) / kNsPerMs; }

// What the completion thread saw; read by the main thread after zkp_host_wait.
struct Tally {
  uint64_t succeeded = 0;
  uint64_t failed = 0;
  uint64_t verified = 0;
  std::map<int32_t, uint64_t> per_device;
};

void on_partition(void* user_data, const zkp_completion_t* r) {
  auto& tally = *static_cast<Tally*>(user_data);
  if (r->status == ZKP_OK) {
    ++tally.succeeded;
    ++tally.per_device[r->gpu_index];
    const bool verified = (r->flags & ZKP_COMPLETION_SELF_CHECKED) != 0;
    if (verified) ++tally.verified;
    std::printf("job %llu partition %u: ok  gpu %d worker %u  gpu_duration %.1f ms  synthesis %.1f ms  "
                "queue_wait %.1f ms  total %.1f ms%s\n",
                static_cast<unsigned long long>(r->job_id), r->partition, r->gpu_index, r->worker,
                ms(r->gpu_duration_ns), ms(r->synthesis_ns), ms(r->queue_wait_ns), ms(r->total_ns),
                verified ? "  verified" : "");
  } else {
    ++tally.failed;
    std::printf("job %llu partition %u: FAILED [%s] %s  gpu %d\n", static_cast<unsigned long long>(r->job_id),
                r->partition, zkp_status_name(r->status), r->message, r->gpu_index);
  }
  std::fflush(stdout);
}

int run_run(const std::vector<std::string>& args) {
  po::options_description specific("run options");
  specific.add_options()
      ("partitions,n", po::value<int64_t>()->value_name("N"), "partitions per job (required, >= 1)")
      ("jobs,j", po::value<int64_t>()->default_value(1)->value_name("J"), "number of jobs (>= 1)")
      ("gpu,g", po::value<int32_t>()->default_value(-1)->value_name("I"), "pin every job to device I; -1: any")
      ("key,k", po::value<std::string>()->value_name("PATH"),
       "proving key (.zkey); without it the prover gets an empty key source (the sim prover accepts that)")
      ("witness", po::value<std::string>()->value_name("WTNS"),
       "witness (.wtns) every partition proves; needs --key. Without it partitions carry no witness");
  const ParsedArgs parsed = parse_command_line(args, specific);
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  if (!parsed.values.count("partitions")) throw UsageError("--partitions is required");
  const int64_t partitions_arg = parsed.values["partitions"].as<int64_t>();
  const int64_t jobs_arg = parsed.values["jobs"].as<int64_t>();
  const int32_t gpu = parsed.values["gpu"].as<int32_t>();
  if (partitions_arg < 1 || partitions_arg > UINT32_MAX) throw UsageError("--partitions must be in [1, 4294967295]");
  if (jobs_arg < 1 || jobs_arg > UINT32_MAX) throw UsageError("--jobs must be in [1, 4294967295]");
  const auto partitions = static_cast<uint32_t>(partitions_arg);
  const auto jobs = static_cast<uint32_t>(jobs_arg);

  host::Host host(load_config(parsed));
  std::cout << "prover " << host.prover_name() << (host.simulated() ? " (simulated)" : "") << ", pacer "
            << host.pacer_name() << ", " << host.device_count() << " device(s) x "
            << host.config().workers_per_device << " worker(s)\n";

  auto source = sdk::make_struct<zkp_key_source_t>();
  std::string key_path;
  if (parsed.values.count("key")) {
    key_path = parsed.values["key"].as<std::string>();
    source.path = key_path.c_str();
  }
  std::string witness_path;
  if (parsed.values.count("witness")) {
    if (key_path.empty()) throw UsageError("--witness needs --key (the key the witness is proved against)");
    witness_path = parsed.values["witness"].as<std::string>();
  }
  const uint64_t key_id = host.load_key(source);

  Tally tally;
  std::vector<zkp_partition_t> parts(partitions);
  for (zkp_partition_t& p : parts) {
    p.header = ZKP_HEADER_INIT(zkp_partition_t);
    p.witness.header = ZKP_HEADER_INIT(zkp_witness_t);
    p.witness.kind = witness_path.empty() ? ZKP_WITNESS_NONE : ZKP_WITNESS_WTNS_FILE;
    if (!witness_path.empty()) p.witness.path = witness_path.c_str();
  }
  auto job = sdk::make_struct<zkp_job_t>();
  job.key_id = key_id;
  job.partitions = parts.data();
  job.partition_count = partitions;
  job.gpu_index = gpu;
  job.on_partition = &on_partition;
  job.user_data = &tally;

  const uint64_t start = host::now_ns();
  for (uint32_t j = 0; j < jobs; ++j) host.submit(job);
  host.wait(0, -1);
  const uint64_t wall = host::now_ns() - start;

  const zkp_host_stats_t stats = host.stats();
  const uint64_t total = static_cast<uint64_t>(partitions) * jobs;
  std::printf("\n%llu partition(s) in %u job(s): %llu succeeded, %llu failed; wall %.3f s, %.2f partitions/s\n",
              static_cast<unsigned long long>(total), jobs, static_cast<unsigned long long>(tally.succeeded),
              static_cast<unsigned long long>(tally.failed), static_cast<double>(wall) / kNsPerS,
              static_cast<double>(total) * kNsPerS / static_cast<double>(wall == 0 ? 1 : wall));
  if (!witness_path.empty()) {
    std::printf("%llu of %llu proof(s) verified by the host (self_check)\n",
                static_cast<unsigned long long>(tally.verified), static_cast<unsigned long long>(tally.succeeded));
  }
  for (uint32_t d = 0; d < host.device_count(); ++d) {
    const zkp_device_info_t info = host.device_info(d);
    std::printf("device %u (%s): %llu proved here, busy %.1f ms\n", d, info.name,
                static_cast<unsigned long long>(tally.per_device[static_cast<int32_t>(d)]), ms(info.busy_ns));
  }
  std::printf("budget peak %s of %s\n", host::format_bytes(stats.budget_peak_bytes).c_str(),
              host::format_bytes(stats.budget_total_bytes).c_str());
  std::printf("pacer: %s\n", host.pacer_status().c_str());
  if (host.config().isolation == host::Isolation::process) {
    std::printf("device processes restarted: %llu\n", static_cast<unsigned long long>(stats.device_restarts));
  }
  if (stats.devices_quarantined > 0) {
    std::printf("devices quarantined after a device error: %u of %u\n", stats.devices_quarantined, stats.device_count);
  }
  if (host.simulated()) std::printf("simulated: no proofs were produced\n");
  host.shutdown(ZKP_SHUTDOWN_DRAIN);
  return tally.failed == 0 ? kExitSuccess : kExitFailure;
}

}  // namespace

ZKPIPE_COMMAND(run, "run jobs of N partitions through the configured prover and pacer, with timings",
               kUsage, run_run);

}  // namespace zkp::cli
