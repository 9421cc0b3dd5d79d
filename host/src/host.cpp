// Host forwards to HostCore (host_core.hpp); the one thing of its own is submit with C++
// callbacks, carried to the C ones by a heap object that the job's last callback frees.
#include <zkpipe/host/host.hpp>

#include <zkpipe/sdk/error.hpp>

#include "host_core.hpp"

#include <utility>

namespace zkp::host {

namespace {

struct Callbacks {
  Host::PartitionCallback on_partition;
  Host::JobCallback on_job;

  static void partition(void* user_data, const zkp_completion_t* record) {
    const auto* self = static_cast<const Callbacks*>(user_data);
    if (self->on_partition) self->on_partition(*record);
  }
  // The pipeline calls a job's callback once, after its partitions' (zkp_host.h): the last
  // use of `user_data`.
  static void job(void* user_data, const zkp_job_summary_t* summary) {
    std::unique_ptr<Callbacks> self(static_cast<Callbacks*>(user_data));
    if (self->on_job) self->on_job(*summary);
  }
};

}  // namespace

Host::Host(Config config) : core_(std::make_unique<HostCore>(std::move(config))) {}
Host::~Host() = default;

const Config& Host::config() const { return core_->config(); }
const std::string& Host::prover_name() const { return core_->prover().name(); }
const std::string& Host::pacer_name() const { return core_->pacer().name(); }
bool Host::simulated() const { return core_->prover().simulated(); }
uint32_t Host::device_count() const { return core_->prover().device_count(); }

uint64_t Host::load_key(const zkp_key_source_t& source) { return core_->load_key(source); }
zkp_key_info_t Host::key_info(uint64_t key_id) const { return core_->key_info(key_id); }
void Host::unload_key(uint64_t key_id) { core_->unload_key(key_id); }

uint64_t Host::submit(const zkp_job_t& job) { return core_->submit(job); }

uint64_t Host::submit(const zkp_job_t& job, PartitionCallback on_partition, JobCallback on_job) {
  auto callbacks = std::make_unique<Callbacks>(Callbacks{std::move(on_partition), std::move(on_job)});
  zkp_job_t with = job;
  with.on_partition = &Callbacks::partition;
  with.on_job = &Callbacks::job;
  with.user_data = callbacks.get();
  // Released before the submit: the job's callback (on the completion thread) may free it
  // before submit returns. A submit that throws took nothing, so it is freed here.
  Callbacks* owned_by_job = callbacks.release();
  try {
    return core_->submit(with);
  } catch (...) {
    delete owned_by_job;
    throw;
  }
}

void Host::cancel(uint64_t job_id) { core_->cancel(job_id); }
void Host::wait(uint64_t job_id, int64_t timeout_ms) { core_->wait(job_id, timeout_ms); }
void Host::verify(uint64_t key_id, std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const {
  core_->verify(key_id, proof, public_inputs);
}
zkp_host_stats_t Host::stats() const { return core_->stats(); }
zkp_device_info_t Host::device_info(uint32_t gpu_index) const { return core_->device_info(gpu_index); }
std::string Host::pacer_status() { return core_->pacer_status(); }
void Host::shutdown(zkp_shutdown_mode_t mode) { core_->shutdown(mode); }
bool Host::on_completion_thread() const { return core_->on_completion_thread(); }

}  // namespace zkp::host
