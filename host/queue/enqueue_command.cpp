// zkpipe enqueue --queue URL --key K.zkey W1.wtns W2.wtns ...: one job of one partition per
// witness into the job store, for `zkpipe worker`s to prove; prints the job id. Paths are
// stored absolute: every worker must see the key and the witnesses at the same paths (shared
// storage). --inline-max BYTES puts witnesses up to that size in the row instead.
// --wait SECONDS then waits for the job (LISTEN/NOTIFY) and exits 0 only if every partition
// succeeded.
#include "services/command/command.hpp"
#include "services/command/net_commands.hpp"
#include "queue_options.hpp"

#include <zkpipe/sdk/error.hpp>

#include "services/names.hpp"
#include "store.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr const char* kUsage =
    "zkpipe enqueue --queue URL --key K.zkey [--key-format zkey|bellperson] [--priority P]\n"
    "               [--gpu-index I] [--curve bn254|bls12_381] [--max-attempts N] [--inline-max BYTES]\n"
    "               [--wait SECONDS] W1.wtns [W2.wtns ...]";

std::string absolute_file(const std::string& path, const char* what) {
  std::error_code ec;
  const fs::path p = fs::canonical(path, ec);
  if (ec || !fs::is_regular_file(p, ec)) throw sdk::Error(ZKP_ERR_NOT_FOUND, std::string(what) + " '" + path + "' is no file");
  return p.string();
}

int enqueue_body(const std::vector<std::string>& args) {
  po::options_description specific("enqueue options");
  add_queue_option(specific);
  specific.add_options()
      ("key,k", po::value<std::string>()->value_name("FILE"), "the proving key (.zkey, or bellperson parameters)")
      ("key-format", po::value<std::string>()->default_value("zkey")->value_name("FORMAT"), "zkey or bellperson")
      ("priority,p", po::value<int32_t>()->default_value(0)->value_name("P"), "higher is claimed first, fleet-wide")
      ("gpu-index", po::value<int32_t>()->default_value(-1)->value_name("I"),
       "only hosts with device I claim the job, and prove it there (-1: any)")
      ("curve", po::value<std::string>()->value_name("CURVE"),
       "only workers that declare this curve (worker --curves) claim the job: bn254 or bls12_381")
      ("max-attempts", po::value<int32_t>()->default_value(0)->value_name("N"),
       "fail a partition once N of its attempts were lost (a worker died, hung or restarted while holding it) "
       "instead of retrying it; 0: the store's default (zkpipe queue config)")
      ("inline-max", po::value<uint64_t>()->default_value(0)->value_name("BYTES"),
       "store witnesses up to this size in the row rather than by path")
      ("wait", po::value<std::string>()->value_name("SECONDS"),
       "wait for the job to finish, SECONDS at most (or 500ms, 2m, 1h; at most 30 days); exit 0 if every partition "
       "succeeded");
  const ParsedArgs parsed = parse_command_line(args, specific);
  if (parsed.help) {
    print_queue_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  if (!parsed.values.count("key")) throw UsageError("--key is required");
  if (parsed.overrides.empty()) throw UsageError("expected one or more witness files");
  const std::optional<std::chrono::milliseconds> wait =
      parsed.values.count("wait") ? std::optional(duration_flag("--wait", parsed.values["wait"].as<std::string>(),
                                                                services::DurationUnit::seconds))
                                  : std::nullopt;
  queue::JobSpec job;
  job.key_format = parsed.values["key-format"].as<std::string>();
  if (!services::key_format_from_name(job.key_format)) {
    throw UsageError("--key-format is " + std::string(services::key_format_choices()) + ", not '" + job.key_format + "'");
  }
  job.key_path = absolute_file(parsed.values["key"].as<std::string>(), "key");
  job.priority = parsed.values["priority"].as<int32_t>();
  job.gpu_index = parsed.values["gpu-index"].as<int32_t>();
  if (job.gpu_index < -1) throw UsageError("--gpu-index is -1 (any) or a device index");
  if (parsed.values.count("curve")) {
    // The fleet's spelling (services/names.hpp), which the store keeps.
    const std::optional<zkp_curve_t> curve = services::curve_from_fleet_name(parsed.values["curve"].as<std::string>());
    if (!curve) throw UsageError("--curve is " + std::string(services::fleet_curve_choices()));
    job.curve = services::fleet_curve_name(*curve);
  }
  job.max_attempts = parsed.values["max-attempts"].as<int32_t>();
  if (job.max_attempts < 0) throw UsageError("--max-attempts is at least 1 (0: the store's default)");
  const uint64_t inline_max = parsed.values["inline-max"].as<uint64_t>();
  for (const std::string& w : parsed.overrides) {
    queue::PartitionInput in;
    in.witness_path = absolute_file(w, "witness");
    const uint64_t size = fs::file_size(in.witness_path);
    if (size > 0 && size <= inline_max) {  // an empty file stays a path (the row needs one or the other)
      std::ifstream f(in.witness_path, std::ios::binary);
      in.witness_bytes.assign(std::istreambuf_iterator<char>(f), {});
      if (!f && !f.eof()) throw sdk::Error(ZKP_ERR_NOT_FOUND, "cannot read " + in.witness_path);
      in.witness_path.clear();
    }
    job.partitions.push_back(std::move(in));
  }
  queue::Store store(queue_url(parsed));
  const uint64_t id = store.enqueue(job);
  std::cout << id << std::endl;
  if (!wait) return kExitSuccess;
  const std::optional<queue::JobStatus> s = store.wait_done(id, *wait);
  if (!s || s->state != "done") throw sdk::Error(ZKP_ERR_TIMEOUT, "job " + std::to_string(id) + " is not done yet");
  std::cerr << "job " << id << ": " << s->succeeded << " of " << s->partitions << " partitions succeeded\n";
  return s->failed == 0 ? kExitSuccess : kExitFailure;
}

int run_enqueue(const std::vector<std::string>& args) {
  return with_queue_errors("enqueue", [&] { return enqueue_body(args); });
}

}  // namespace

ZKPIPE_COMMAND(enqueue, net::kEnqueueSummary, kUsage, run_enqueue);

}  // namespace zkp::cli
