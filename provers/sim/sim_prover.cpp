#include "sim_prover.hpp"

#include <zkpipe/sdk/plugin.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <thread>

namespace zkp::sim {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;

constexpr std::string_view kUnsatisfiedWitness = "unsatisfied";

struct SimKey final : zkp_key_t {};
struct SimSynthesis final : zkp_synthesis_t {};

struct SimOp final : zkp_prove_op_t {
  uint32_t device = 0;
  Clock::time_point start;  // when its device work begins: after the worker's previous op
  Clock::time_point deadline;
};

}  // namespace

SimProver::SimProver(const sdk::HostServices&, sdk::Options& options)
    : gpu_time_(milliseconds(options.get_u64("gpu_ms", 1000, 0, 3'600'000))),
      contention_(options.get_double("contention", 1.2, 1.0, 100.0)),
      synthesis_time_(milliseconds(options.get_u64("synthesis_ms", 0, 0, 3'600'000))),
      synthesis_jitter_(milliseconds(options.get_u64("synthesis_jitter_ms", 0, 0, 3'600'000))),
      partition_bytes_(options.get_u64("partition_bytes", 1 << 20, 1)),
      rng_(options.get_u64("seed", 1)) {
  const uint64_t n = options.get_u64("devices", 1, 1, 1024);
  device_storage_ = std::make_unique<Device[]>(n);
  for (uint64_t i = 0; i < n; ++i) devices_.push_back(&device_storage_[i]);
}

void SimProver::device_info(uint32_t gpu_index, zkp_device_info_t& out) const {
  const Device& d = *devices_[gpu_index];
  sdk::copy_name(out.name, "simulated device " + std::to_string(gpu_index) + " (no proofs)");
  out.memory_bytes = 0;
  out.memory_free_bytes = 0;
  out.partitions_started = d.started.load();
  out.partitions_proved = d.proved.load();
  out.busy_ns = d.busy_ns.load();
}

std::unique_ptr<zkp_key_t> SimProver::key_load(const zkp_key_source_t&, int32_t) {
  return std::make_unique<SimKey>();
}

void SimProver::key_info(const zkp_key_t&, zkp_key_info_t& out) const {
  out.curve = ZKP_CURVE_UNKNOWN;
  out.n_vars = 0;
  out.n_public = 0;
  out.domain_size = 0;
  out.synthesis_bytes = partition_bytes_;
  out.proof_size = 0;
  out.public_size = 0;
}

nanoseconds SimProver::synthesis_time() {
  if (synthesis_jitter_.count() == 0) return synthesis_time_;
  std::lock_guard lock(rng_mutex_);
  // Modulo bias is irrelevant for a simulated delay.
  return synthesis_time_ + nanoseconds(rng_() % static_cast<uint64_t>(synthesis_jitter_.count() + 1));
}

std::unique_ptr<zkp_synthesis_t> SimProver::synthesize(const zkp_key_t&, const zkp_witness_t& witness) {
  if (witness.kind == ZKP_WITNESS_WTNS_BUFFER && witness.data != nullptr &&
      std::string_view(static_cast<const char*>(witness.data), witness.size) == kUnsatisfiedWitness) {
    throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS,
                     "simulated witness marked 'unsatisfied' (sim prover failure hook)");
  }
  std::this_thread::sleep_for(synthesis_time());
  return std::make_unique<SimSynthesis>();
}

uint32_t SimProver::pick_least_busy() const {
  uint32_t best = 0;
  for (uint32_t i = 1; i < devices_.size(); ++i) {
    if (devices_[i]->busy.load() < devices_[best]->busy.load()) best = i;
  }
  return best;
}

std::unique_ptr<zkp_prove_op_t> SimProver::prove_start(const zkp_key_t&, const zkp_prove_input_t&,
                                                       int32_t gpu_index, uint32_t worker) {
  auto op = std::make_unique<SimOp>();
  op->device = gpu_index < 0 ? pick_least_busy() : static_cast<uint32_t>(gpu_index);
  Device& d = *devices_[op->device];
  d.busy.fetch_add(1);
  d.started.fetch_add(1);
  std::lock_guard lock(d.streams_mu);
  Clock::time_point& free_at = d.stream_free[worker];
  op->start = std::max(Clock::now(), free_at);
  // Another worker's stream still busy when this op begins slows it down, like two
  // streams sharing one GPU.
  bool shared = false;
  for (const auto& [other, end] : d.stream_free) shared = shared || (other != worker && end > op->start);
  const auto duration = std::chrono::duration_cast<nanoseconds>(gpu_time_ * (shared ? contention_ : 1.0));
  op->deadline = op->start + duration;
  free_at = op->deadline;
  return op;
}

void SimProver::prove_finish(std::unique_ptr<zkp_prove_op_t> base, zkp_prove_output_t& out) {
  auto& op = static_cast<SimOp&>(*base);
  std::this_thread::sleep_until(op.deadline);
  const auto elapsed = std::chrono::duration_cast<nanoseconds>(Clock::now() - op.start);
  Device& d = *devices_[op.device];
  d.busy.fetch_sub(1);
  d.proved.fetch_add(1);
  d.busy_ns.fetch_add(static_cast<uint64_t>(elapsed.count()));
  out.proof_size = 0;
  out.public_size = 0;
  out.gpu_index = static_cast<int32_t>(op.device);
  out.gpu_duration_ns = static_cast<uint64_t>(elapsed.count());
  out.epilogue_ns = 0;
  out.msm_ns = 0;
  out.ntt_ns = 0;
}

}  // namespace zkp::sim

ZKP_PLUGIN("sim", "1.0.0", "SIMULATED device for pacing and pipeline tests: produces no proofs",
           zkp::sdk::ProverFactory<zkp::sim::SimProver>);
