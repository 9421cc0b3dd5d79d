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

constexpr uint64_t kMaxMs = 3'600'000;  // an hour per partition: longer is a typo
constexpr uint32_t kMaxDevices = 1024;
constexpr double kMaxContention = 100.0;

}  // namespace

const sdk::OptionTable<SimSettings>& SimProver::option_table() {
  static const sdk::OptionTable<SimSettings> table{
      sdk::integer("devices", &SimSettings::devices, 1, kMaxDevices, "number of simulated devices"),
      sdk::integer("gpu_ms", &SimSettings::gpu_ms, 0, kMaxMs, "device time of one partition when it runs alone (ms)"),
      sdk::number("contention", &SimSettings::contention, 1.0, kMaxContention,
                  "device time multiplier when another worker of the device is busy"),
      sdk::integer("synthesis_ms", &SimSettings::synthesis_ms, 0, kMaxMs, "synthesis time per partition (ms)"),
      sdk::integer("synthesis_jitter_ms", &SimSettings::synthesis_jitter_ms, 0, kMaxMs,
                   "extra synthesis time, uniform in [0, jitter] (ms)"),
      sdk::integer("partition_bytes", &SimSettings::partition_bytes, 1, UINT64_MAX,
                   "host bytes one synthesized partition holds (budget reservation)"),
      sdk::integer("seed", &SimSettings::seed, 0, UINT64_MAX, "seed of the synthesis jitter"),
  };
  return table;
}

SimProver::SimProver(const sdk::HostServices&, sdk::Options& options) : SimProver(option_table().read(options)) {}

SimProver::SimProver(const SimSettings& settings)
    : gpu_time_(milliseconds(settings.gpu_ms)),
      contention_(settings.contention),
      synthesis_time_(milliseconds(settings.synthesis_ms)),
      synthesis_jitter_(milliseconds(settings.synthesis_jitter_ms)),
      partition_bytes_(settings.partition_bytes),
      rng_(settings.seed) {
  device_storage_ = std::make_unique<Device[]>(settings.devices);
  for (uint32_t i = 0; i < settings.devices; ++i) devices_.push_back(&device_storage_[i]);
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

void SimProver::prove_wait(zkp_prove_op_t& base) {
  // A simulated device "reads" its input until its work ends; nothing is read at all.
  std::this_thread::sleep_until(static_cast<SimOp&>(base).deadline);
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
