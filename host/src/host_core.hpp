// zkp::host::HostCore — what zkp::host::Host (zkpipe/host/host.hpp, the runtime's public face)
// holds: one prover and one pacer, loaded from plugins by its configuration, the keys, the
// pipeline and the completion thread. Private to the runtime: the front ends see Host only.
//
// Every method is [any-thread] unless noted, and reports failure by throwing
// zkp::sdk::Error (status + message). The semantics are those of zkp_host.h.
#pragma once

#include "completion_dispatcher.hpp"
#include <zkpipe/host/config.hpp>
#include "key_registry.hpp"
#include "pacer.hpp"
#include "pipeline.hpp"
#include "prover.hpp"
#include <zkpipe/zkp_host.h>

#include <memory>
#include <mutex>
#include <span>
#include <string>

namespace zkp::host {

class HostCore {
 public:
  // Loads the prover and pacer plugins named by `config` and starts the pipeline.
  explicit HostCore(Config config);
  // Shuts down (draining) if that was not done yet. Not on the completion thread.
  ~HostCore();
  HostCore(const HostCore&) = delete;
  HostCore& operator=(const HostCore&) = delete;

  const Config& config() const { return config_; }
  const Prover& prover() const { return *prover_; }
  const Pacer& pacer() const { return *pacer_; }

  // Loads a key on every device. ZKP_ERR_BUDGET_EXHAUSTED if one partition of it can
  // never fit in the memory budget.
  uint64_t load_key(const zkp_key_source_t& source);
  zkp_key_info_t key_info(uint64_t key_id) const;
  // Drops a key (zkp_host_unload_key): ZKP_ERR_INVALID_ARGUMENT while partitions of it are in
  // flight, ZKP_ERR_NOT_FOUND for an unknown key.
  void unload_key(uint64_t key_id);

  uint64_t submit(const zkp_job_t& job);
  void cancel(uint64_t job_id);
  // Waits for job `job_id` (0: all so far); timeout_ms < 0 waits forever.
  // Throws ZKP_ERR_TIMEOUT, ZKP_ERR_NOT_FOUND, or ZKP_ERR_INVALID_ARGUMENT on the
  // completion thread.
  void wait(uint64_t job_id, int64_t timeout_ms);

  // Checks a proof of key `key_id` with the prover (zkp_host_verify): returns if it is
  // valid, throws ZKP_ERR_INVALID_PROOF if not, ZKP_ERR_NOT_FOUND, ZKP_ERR_BAD_INPUT (sizes)
  // or ZKP_ERR_UNSUPPORTED before asking the prover, or the prover's failure.
  void verify(uint64_t key_id, std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const;

  zkp_host_stats_t stats() const;
  zkp_device_info_t device_info(uint32_t gpu_index) const;
  std::string pacer_status();

  // Stops accepting jobs, drains or cancels, waits, and ends every thread. A second
  // call returns at once. ZKP_ERR_INVALID_ARGUMENT on the completion thread.
  void shutdown(zkp_shutdown_mode_t mode);

  // True on the thread that runs callbacks (where wait/shutdown/destroy must not run).
  bool on_completion_thread() const { return dispatcher_->on_completion_thread(); }

 private:
  void check_generator_fits(const WitnessGenerator& generator, const zkp_key_info_t& info,
                            const zkp_key_source_t& source) const;
  void refuse_on_completion_thread(const char* function) const;

  Config config_;
  // Destroyed in reverse: the pipeline's threads end first, then the completion
  // thread, then keys (freed through the prover), then the pacer, then the prover;
  // each plugin library is unloaded when its last object is gone.
  std::unique_ptr<Prover> prover_;
  std::unique_ptr<Pacer> pacer_;
  KeyRegistry keys_;
  std::unique_ptr<CompletionDispatcher> dispatcher_;
  std::unique_ptr<Pipeline> pipeline_;

  std::mutex shutdown_mu_;  // serializes shutdown; outermost in the lock order
  bool shut_down_ = false;  // guarded by shutdown_mu_
};

}  // namespace zkp::host
