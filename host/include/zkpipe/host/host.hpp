// zkp::host::Host — the runtime's C++ face: what the `zkpipe` command line, `zkpipe serve`, the
// fleet worker and the C API (capi/c_api.cpp, which wraps it 1:1 as zkp_host_t) hold. It owns
// one prover and one pacer, loaded from plugins by its configuration, the keys, the pipeline
// and the completion thread; none of those are visible here (host/src/host_core.hpp has them),
// so a front end depends on this header, config.hpp and nothing else of the runtime.
//
// Every method is [any-thread] unless noted, and reports failure by throwing
// zkp::sdk::Error (status + message); c_api.cpp turns that into the C status. The
// semantics are those of zkp_host.h.
#pragma once

#include <zkpipe/host/config.hpp>
#include <zkpipe/zkp_host.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

namespace zkp::host {

class HostCore;

class Host {
 public:
  // Loads the prover and pacer plugins named by `config` and starts the pipeline.
  explicit Host(Config config);
  // Shuts down (draining) if that was not done yet. Not on the completion thread.
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  const Config& config() const;
  // The prover's and the pacer's names ("cpu", "pi"), as their plugins report them.
  const std::string& prover_name() const;
  const std::string& pacer_name() const;
  // True for a prover that simulates (its proofs are empty bytes).
  bool simulated() const;
  uint32_t device_count() const;

  // Loads a key on every device. ZKP_ERR_BUDGET_EXHAUSTED if one partition of it can
  // never fit in the memory budget.
  uint64_t load_key(const zkp_key_source_t& source);
  zkp_key_info_t key_info(uint64_t key_id) const;
  // Drops a key (zkp_host_unload_key): ZKP_ERR_INVALID_ARGUMENT while partitions of it are in
  // flight, ZKP_ERR_NOT_FOUND for an unknown key.
  void unload_key(uint64_t key_id);

  // Submits with the job's C callbacks (zkp_host_submit).
  uint64_t submit(const zkp_job_t& job);
  // Submits with C++ callbacks in place of the job's on_partition, on_job and user_data (which
  // are ignored). Both run on the completion thread, as the C ones do; `on_job` runs last, once.
  using PartitionCallback = std::function<void(const zkp_completion_t&)>;
  using JobCallback = std::function<void(const zkp_job_summary_t&)>;
  uint64_t submit(const zkp_job_t& job, PartitionCallback on_partition, JobCallback on_job = {});
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
  bool on_completion_thread() const;

 private:
  std::unique_ptr<HostCore> core_;
};

}  // namespace zkp::host
