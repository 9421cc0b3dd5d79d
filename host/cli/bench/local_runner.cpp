#include "bench/local_runner.hpp"

#include "bench/busy_sampler.hpp"

#include <zkpipe/host/clock.hpp>
#include <zkpipe/host/host.hpp>
#include <zkpipe/sdk/error.hpp>

#include <deque>
#include <mutex>

namespace zkp::cli::bench {

namespace {

constexpr double kNsPerS = 1e9;

// Written by the host's completion thread, read by the bench's thread.
struct Tally {
  std::mutex mutex;
  bool measuring = false;  // warm-up completions are not recorded
  std::vector<uint64_t> latency_ns;
  uint64_t failed = 0;
  std::string first_failure;
  uint64_t verified = 0;
  uint64_t last_completion_ns = 0;
};

void on_partition(void* user_data, const zkp_completion_t* r) {
  auto& tally = *static_cast<Tally*>(user_data);
  const std::lock_guard lock(tally.mutex);
  if (!tally.measuring) return;
  tally.last_completion_ns = host::now_ns();
  if (r->status != ZKP_OK) {
    if (tally.failed++ == 0) tally.first_failure = std::string("[") + zkp_status_name(r->status) + "] " + r->message;
    return;
  }
  tally.latency_ns.push_back(r->total_ns);
  if ((r->flags & ZKP_COMPLETION_SELF_CHECKED) != 0) ++tally.verified;
}

std::vector<uint64_t> device_busy_ns(const host::Host& h) {
  std::vector<uint64_t> busy;
  for (uint32_t d = 0; d < h.device_count(); ++d) busy.push_back(h.device_info(d).busy_ns);
  return busy;
}

uint64_t busy_ns(const host::Host& h) {
  uint64_t sum = 0;
  for (uint64_t b : device_busy_ns(h)) sum += b;
  return sum;
}

}  // namespace

LocalRunner::LocalRunner(host::Config base, BenchInput input, std::chrono::steady_clock::time_point origin)
    : base_(std::move(base)), input_(std::move(input)), origin_(origin) {}

PointResult LocalRunner::run(const Point& point, const Budget& budget, const ProofTick& tick) {
  host::Config config = base_;
  config.workers_per_device = point.workers_per_device;
  config.synthesis_threads = point.synthesis_threads;
  config.self_check = true;
  host::Host h(std::move(config));
  prover_name_ = h.prover_name();

  auto source = sdk::make_struct<zkp_key_source_t>();
  if (input_.key_image.empty()) {
    source.path = input_.key_path.c_str();
  } else {
    source.data = input_.key_image.data();  // outlives the host, which frees the key
    source.size = input_.key_image.size();
  }
  const uint64_t key_id = h.load_key(source);

  Tally tally;
  auto part = sdk::make_struct<zkp_partition_t>();
  part.witness = sdk::make_struct<zkp_witness_t>();
  if (input_.assignment.empty()) {
    part.witness.kind = ZKP_WITNESS_WTNS_FILE;
    part.witness.path = input_.witness_path.c_str();
  } else {
    part.witness.kind = ZKP_WITNESS_ASSIGNMENT;
    part.witness.data = input_.assignment.data();
    part.witness.size = input_.assignment.size();
  }
  auto job = sdk::make_struct<zkp_job_t>();
  job.key_id = key_id;
  job.partitions = &part;
  job.partition_count = 1;
  job.gpu_index = -1;
  job.on_partition = &on_partition;
  job.user_data = &tally;

  // Declared after h: it stops reading the host before the host is destroyed.
  BusySampler sampler([&h] { return device_busy_ns(h); }, origin_);

  // Keeps point.in_flight jobs submitted, waiting for the oldest before topping up. Jobs
  // finish in about the order they were submitted, so waiting on the oldest rarely leaves a
  // slot idle for long; a job that finished out of order is collected when its turn comes.
  std::deque<uint64_t> outstanding;
  auto keep_full = [&](auto&& more) {
    uint64_t finished = 0;
    while (true) {
      while (outstanding.size() < point.in_flight && more()) outstanding.push_back(h.submit(job));
      if (outstanding.empty()) return;
      h.wait(outstanding.front(), -1);
      outstanding.pop_front();
      if (tally.measuring) tick(++finished);
    }
  };

  uint32_t warm_submitted = 0;
  keep_full([&] {
    if (warm_submitted >= budget.warmup) return false;
    ++warm_submitted;
    return true;
  });

  PointResult result;
  result.point = point;
  result.warmup = budget.warmup;
  result.devices = h.device_count();
  const uint64_t busy_before = busy_ns(h);
  {
    const std::lock_guard lock(tally.mutex);
    tally.measuring = true;
  }
  const uint64_t start = host::now_ns();
  const auto deadline = start + static_cast<uint64_t>(budget.duration_s * kNsPerS);
  uint64_t submitted = 0;
  keep_full([&] {
    const bool more = budget.proofs > 0 ? submitted < budget.proofs : host::now_ns() < deadline;
    if (more) ++submitted;
    return more;
  });
  h.wait(0, -1);
  result.busy_ns = busy_ns(h) - busy_before;
  result.busy_samples = sampler.stop();
  h.shutdown(ZKP_SHUTDOWN_DRAIN);

  const std::lock_guard lock(tally.mutex);
  result.wall_ns = tally.last_completion_ns > start ? tally.last_completion_ns - start : 0;
  result.latency_ns = std::move(tally.latency_ns);
  result.failed = tally.failed;
  result.first_failure = std::move(tally.first_failure);
  result.verified = tally.verified;
  return result;
}

}  // namespace zkp::cli::bench
