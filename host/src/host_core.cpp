#include "host_core.hpp"


#include <zkpipe/host/byte_size.hpp>
#include <zkpipe/host/clock.hpp>
#include "container_limits.hpp"
#include <zkpipe/host/log_format.hpp>
#include <zkpipe/host/logging.hpp>
#include <zkpipe/host/plugin_loader.hpp>
#include "worker.hpp"
#include <zkpipe/sdk/error.hpp>

#include "isolation/device_executable.hpp"
#include "isolation/isolated_prover.hpp"

#include <chrono>
#include <cstddef>

namespace zkp::host {

using sdk::Error;
using sdk::require_struct;

HostCore::HostCore(Config config) : config_(std::move(config)) {
  log().set_level(config_.log_level);
  // text is not applied: it would undo `zkpipe serve`'s serve.log_format = json, set first.
  if (config_.log_format == LogFormat::json) apply_log_format(LogFormat::json);
  // What a container's limits made of the defaults, so a host sized by them says why.
  log().info("machine defaults: {}", this_machine_defaults().reason);
  const PluginLoader loader(config_.plugin_path);

  auto prover_facts = sdk::make_struct<zkp_prover_facts_t>();
  prover_facts.workers_per_device = config_.workers_per_device;
  prover_facts.synthesis_threads = config_.synthesis_threads;
  prover_facts.ops_per_worker = config_.worker_overlap ? kOverlapOpsPerWorker : 1;
  if (config_.isolation == Isolation::process) {
    // The plugin is opened in the device processes only: a fault in it (or in the CUDA runtime
    // under it) stays there.
    isolation::DeviceProcessSpec spec;
    spec.executable = isolation::find_device_executable(config_.isolation_executable);
    spec.plugin = loader.resolve(PluginKind::prover, config_.prover).string();
    for (const PluginOption& o : config_.prover_options) spec.options.emplace_back(o.key, o.value);
    spec.facts = prover_facts;
    spec.synthesize_ahead = config_.isolation_synthesize_ahead;
    spec.log_level = static_cast<int>(config_.log_level);
    isolation::DeviceControl* control = nullptr;
    zkp_prover_t* table = isolation::create_isolated_prover(spec, &control);
    prover_ = Prover::adopt(table, control);
    log().info("isolation = process: {} device process(es) of '{}' ({})", prover_->device_count(), spec.plugin,
               spec.executable);
  } else {
    prover_ = Prover::create(loader.load(PluginKind::prover, config_.prover), prover_facts, config_.prover_options);
  }
  if (config_.self_check && prover_->simulated()) {
    log().info("self_check: prover '{}' is a simulation; there is nothing to check", prover_->name());
  } else if (config_.self_check && !prover_->can_verify()) {
    log().warn("self_check: prover '{}' cannot verify proofs; they are delivered unchecked", prover_->name());
  }

  const PipelineSettings settings = PipelineSettings::from(config_, prover_->device_count());
  auto facts = sdk::make_struct<zkp_pacer_facts_t>();
  facts.device_count = settings.devices;
  facts.workers_per_device = settings.workers_per_device;
  facts.synthesis_threads = settings.synthesis_threads;
  facts.budget_bytes = settings.budget_bytes;
  facts.start_ns = now_ns();
  pacer_ = Pacer::create(loader.load(PluginKind::pacer, config_.pacer), facts, config_.pacer_options);

  dispatcher_ = std::make_unique<CompletionDispatcher>();
  pipeline_ = std::make_unique<Pipeline>(settings, *prover_, *pacer_, *dispatcher_);
  pipeline_->start();
  log().info("host ready: prover '{}' ({} device(s) x {} worker(s)), pacer '{}', {} synthesis thread(s), "
             "budget {}, queue {}",
             prover_->name(), settings.devices, settings.workers_per_device, pacer_->name(),
             settings.synthesis_threads, format_bytes(settings.budget_bytes), queue_mode_name(settings.queue));
}

HostCore::~HostCore() {
  try {
    shutdown(ZKP_SHUTDOWN_DRAIN);
  } catch (const std::exception& e) {
    log().error("host shutdown failed: {}", e.what());
  }
}

void HostCore::refuse_on_completion_thread(const char* function) const {
  if (on_completion_thread()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, std::string(function) +
                                              " was called from the completion thread (inside a "
                                              "callback): it would wait for that callback to return");
  }
}

uint64_t HostCore::load_key(const zkp_key_source_t& source) {
  // The generator first: a missing or foreign plugin fails before seconds of key loading.
  std::shared_ptr<const WitnessGenerator> generator;
  if (sdk::covers(source.header, offsetof(zkp_key_source_t, witness_generator) + sizeof source.witness_generator) &&
      source.witness_generator != nullptr && *source.witness_generator != '\0') {
    generator = std::make_shared<const WitnessGenerator>(WitnessGenerator::open(source.witness_generator));
  }
  KeyHandle handle = prover_->load_key(source, -1);
  const zkp_key_info_t info = prover_->key_info(*handle);
  if (generator) check_generator_fits(*generator, info, source);
  // What admission will reserve per partition (LoadedKey::partition_bytes): one that can never
  // fit would wait forever.
  const uint64_t needs = partition_bytes(info, generator.get());
  if (needs > config_.budget_bytes) {
    const std::string what = source.path != nullptr ? "key '" + std::string(source.path) + "'" : "the key";
    throw Error(ZKP_ERR_BUDGET_EXHAUSTED,
                what + ": one partition needs " + std::to_string(needs) + " bytes (" +
                    format_bytes(needs) + ") but the memory budget is " +
                    std::to_string(config_.budget_bytes) + " bytes (" + format_bytes(config_.budget_bytes) +
                    "); raise `budget`");
  }
  return keys_.add(std::move(handle), info, std::move(generator));
}

namespace {
const char* curve_text(zkp_curve_t c) {
  return c == ZKP_CURVE_BN254 ? "BN254" : c == ZKP_CURVE_BLS12_381 ? "BLS12-381" : "an unknown field";
}
}  // namespace

// A generator of another circuit would make witnesses every proof of this key refuses: its
// curve and signal count must be the key's.
void HostCore::check_generator_fits(const WitnessGenerator& generator, const zkp_key_info_t& info,
                                    const zkp_key_source_t& source) const {
  const zkp_witness_circuit_t& c = generator.circuit();
  const std::string what = source.path != nullptr ? "key '" + std::string(source.path) + "'" : "the key";
  if (info.curve != ZKP_CURVE_UNKNOWN && c.curve != info.curve) {
    throw Error(ZKP_ERR_BAD_INPUT, generator.describe() + " computes over " + curve_text(c.curve) + ", " + what +
                                       " is over " + curve_text(info.curve));
  }
  if (info.n_vars != 0 && c.n_signals != info.n_vars) {
    throw Error(ZKP_ERR_BAD_INPUT, generator.describe() + " computes " + std::to_string(c.n_signals) + " signals, " + what +
                                       " has " + std::to_string(info.n_vars) + " wires: not its circuit");
  }
}

zkp_key_info_t HostCore::key_info(uint64_t key_id) const { return keys_.find(key_id)->info; }

void HostCore::unload_key(uint64_t key_id) {
  keys_.find(key_id);  // ZKP_ERR_NOT_FOUND first, for an unknown key
  // Not atomic with a submit that has already found the key: that job keeps the key alive
  // through its reference, and the prover frees it when the job ends.
  if (const uint64_t n = pipeline_->partitions_in_flight(key_id); n > 0) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "key id " + std::to_string(key_id) + " is in use: " + std::to_string(n) +
                                              " partition(s) of its jobs have not completed; cancel or wait "
                                              "for them, then unload it");
  }
  keys_.remove(key_id);
}

uint64_t HostCore::submit(const zkp_job_t& c_job) {
  auto key = keys_.find(c_job.key_id);
  if (c_job.partition_count == 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "the job has no partitions (partition_count is 0)");
  if (c_job.partitions == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_job_t.partitions is NULL");
  const uint32_t devices = prover_->device_count();
  if (c_job.gpu_index < -1 || c_job.gpu_index >= static_cast<int32_t>(devices)) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "gpu_index " + std::to_string(c_job.gpu_index) +
                                              " is out of range: prover '" + prover_->name() + "' has " +
                                              std::to_string(devices) + " device(s) (use 0.." +
                                              std::to_string(devices - 1) + ", or -1 for any)");
  }
  if (key->partition_bytes() > config_.budget_bytes) {
    throw Error(ZKP_ERR_BUDGET_EXHAUSTED, "one partition needs " + std::to_string(key->partition_bytes()) +
                                              " bytes but the memory budget is " +
                                              std::to_string(config_.budget_bytes) + " bytes");
  }

  auto job = std::make_shared<Job>();
  job->key = std::move(key);
  job->gpu_index = c_job.gpu_index;
  job->priority = c_job.priority;
  job->partitions.assign(c_job.partitions, c_job.partitions + c_job.partition_count);
  for (uint32_t p = 0; p < c_job.partition_count; ++p) {
    const zkp_partition_t& part = job->partitions[p];
    const std::string which = "partition " + std::to_string(p);
    require_struct(&part, ("zkp_partition_t (" + which + ")").c_str());
    if (part.synthesized != nullptr) {
      // The first release's layout ends at assignment_length; later fields are optional.
      require_struct(part.synthesized, ("zkp_synthesized_t (" + which + ")").c_str(),
                     offsetof(zkp_synthesized_t, flags));
    } else {
      require_struct(&part.witness, ("zkp_witness_t (" + which + ")").c_str());
      if (part.witness.kind == ZKP_WITNESS_INPUT_JSON && !job->key->generator) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT, which + " is an input (ZKP_WITNESS_INPUT_JSON) but key id " +
                                                  std::to_string(c_job.key_id) +
                                                  " has no witness generator (zkp_key_source_t.witness_generator)");
      }
    }
  }
  if (c_job.randomness != nullptr) {
    job->randomness.assign(c_job.randomness, c_job.randomness + c_job.partition_count * kRandomnessBytes);
  }
  job->submit_ns = now_ns();

  const zkp_input_callback_t on_input_released =
      sdk::covers(c_job.header, offsetof(zkp_job_t, on_input_released) + sizeof(c_job.on_input_released))
          ? c_job.on_input_released
          : nullptr;
  job->input_release = std::make_shared<InputRelease>(on_input_released, c_job.user_data, c_job.partition_count);

  JobCallbacks callbacks;
  callbacks.on_partition = c_job.on_partition;
  callbacks.on_job = c_job.on_job;
  callbacks.user_data = c_job.user_data;
  callbacks.input_release = job->input_release;
  return pipeline_->submit(std::move(job), callbacks);
}

void HostCore::cancel(uint64_t job_id) { pipeline_->cancel(job_id); }

void HostCore::wait(uint64_t job_id, int64_t timeout_ms) {
  refuse_on_completion_thread("zkp_host_wait");
  std::optional<std::chrono::milliseconds> timeout;
  if (timeout_ms >= 0) timeout = std::chrono::milliseconds(timeout_ms);
  const std::string what = job_id == 0 ? "the jobs" : "job " + std::to_string(job_id);
  switch (dispatcher_->wait(job_id, timeout)) {
    case ZKP_OK: return;
    case ZKP_ERR_TIMEOUT:
      throw Error(ZKP_ERR_TIMEOUT, what + " did not finish within " + std::to_string(timeout_ms) + " ms");
    default:
      throw Error(ZKP_ERR_NOT_FOUND, "job " + std::to_string(job_id) + " was never submitted to this host");
  }
}

void HostCore::verify(uint64_t key_id, std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const {
  const std::shared_ptr<const LoadedKey> key = keys_.find(key_id);  // held for the call
  const std::string what = "key " + std::to_string(key_id);
  if (prover_->simulated() || !prover_->can_verify()) {
    const char* why = prover_->simulated() ? "a simulation: its proofs are empty" : "no ZKP_PROVER_FLAG_VERIFY";
    throw Error(ZKP_ERR_UNSUPPORTED, "prover '" + prover_->name() + "' cannot verify proofs (" + why +
                                         "); choose a prover that can, e.g. prover=cpu");
  }
  const zkp_key_info_t& info = key->info;
  if (proof.size() != info.proof_size) {
    throw Error(ZKP_ERR_BAD_INPUT, what + ": the proof is " + std::to_string(proof.size()) +
                                       " bytes; a proof of this key is " + std::to_string(info.proof_size));
  }
  if (public_inputs.size() != info.public_size) {
    const size_t bytes = public_inputs.size();
    const std::string given = bytes % ZKP_SCALAR_SIZE == 0
                                  ? std::to_string(bytes / ZKP_SCALAR_SIZE) + " public input(s)"
                                  : std::to_string(bytes) + " bytes of public inputs (not whole 32-byte scalars)";
    throw Error(ZKP_ERR_BAD_INPUT, what + ": " + given + " (" + std::to_string(bytes) + " bytes); the key has " +
                                       std::to_string(info.n_public) + " (" + std::to_string(info.public_size) +
                                       " bytes)");
  }
  bool valid = false;
  const Status checked = prover_->verify(*key->handle, proof, public_inputs, valid,
                                         what + ": prover '" + prover_->name() + "' could not verify the proof");
  if (!checked.ok()) throw Error(checked.code, checked.message);
  if (!valid) {
    throw Error(ZKP_ERR_INVALID_PROOF,
                what + ": the proof does not verify for these " + std::to_string(info.n_public) + " public input(s)");
  }
}

zkp_host_stats_t HostCore::stats() const {
  const PipelineCounts c = pipeline_->counts();
  const CompletionDispatcher::Counters d = dispatcher_->counters();
  auto s = sdk::make_struct<zkp_host_stats_t>();
  s.jobs_submitted = c.jobs_submitted;
  s.jobs_finished = d.jobs_finished;
  s.partitions_succeeded = d.partitions_succeeded;
  s.partitions_failed = d.partitions_failed;
  s.pending = c.pending;
  s.synthesizing = c.synthesizing;
  s.waiting = c.waiting;
  s.proving = c.proving;
  s.budget_total_bytes = c.budget_total;
  s.budget_used_bytes = c.budget_used;
  s.budget_peak_bytes = c.budget_peak;
  s.device_count = prover_->device_count();
  s.workers_per_device = config_.workers_per_device;
  s.admission_stalls = c.admission_stalls;
  s.admission_interval_ns = c.admission_interval_ns;
  s.device_restarts = prover_->device_restarts();
  s.devices_quarantined = c.devices_quarantined;
  return s;
}

zkp_device_info_t HostCore::device_info(uint32_t gpu_index) const {
  const uint32_t devices = prover_->device_count();
  if (gpu_index >= devices) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "gpu_index " + std::to_string(gpu_index) + " is out of range: prover '" +
                                              prover_->name() + "' has " + std::to_string(devices) + " device(s)");
  }
  return prover_->device_info(gpu_index);
}

std::string HostCore::pacer_status() { return pipeline_->pacer_status(); }

void HostCore::shutdown(zkp_shutdown_mode_t mode) {
  refuse_on_completion_thread("zkp_host_shutdown");
  if (mode != ZKP_SHUTDOWN_DRAIN && mode != ZKP_SHUTDOWN_CANCEL) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "unknown shutdown mode " + std::to_string(mode));
  }
  std::lock_guard lock(shutdown_mu_);
  if (shut_down_) return;
  pipeline_->close();
  if (mode == ZKP_SHUTDOWN_CANCEL) pipeline_->cancel_all();
  dispatcher_->wait(0, std::nullopt);  // every job finished and its callbacks returned
  pipeline_->stop();
  dispatcher_->stop();
  shut_down_ = true;
  log().debug("host shut down ({})", mode == ZKP_SHUTDOWN_CANCEL ? "cancel" : "drain");
}

}  // namespace zkp::host
