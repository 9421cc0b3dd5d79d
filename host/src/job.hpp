// What moves through the pipeline: a Job (one zkp_host_submit) and its Tasks (one per
// partition). A Task is owned by exactly one stage at a time (scheduler, synthesis,
// GPU queue, worker) and ends in exactly one completion record.
#pragma once

#include "prover.hpp"
#include <zkpipe/host/witness_generator.hpp>
#include <zkpipe/zkp_host.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace zkp::host {

// The randomness of one proof: r || s, two scalars (zkp_job_t.randomness).
inline constexpr size_t kRandomnessBytes = 2 * ZKP_SCALAR_SIZE;

// A proving key loaded on every device of the prover, with what the prover said of it.
// What admission reserves a partition of a key: its synthesis (key_info's synthesis_bytes), and
// with a witness generator the witness it computes first (held until the synthesis is made).
inline uint64_t partition_bytes(const zkp_key_info_t& info, const WitnessGenerator* generator) {
  const uint64_t witness = generator != nullptr ? uint64_t{generator->circuit().n_signals} * ZKP_SCALAR_SIZE : 0;
  return info.synthesis_bytes + witness;
}

struct LoadedKey {
  uint64_t id = 0;
  KeyHandle handle;
  zkp_key_info_t info{};
  // zkp_key_source_t.witness_generator's, or null: computes the witness of partitions given
  // as ZKP_WITNESS_INPUT_JSON, on the synthesis threads (its calculate is any-thread).
  std::shared_ptr<const WitnessGenerator> generator;

  uint64_t partition_bytes() const { return host::partition_bytes(info, generator.get()); }
};

// zkp_job_t.on_input_released, each partition's told at most once: by the worker that saw its
// input read (prove_wait), or at its completion. Shared by the job and its callbacks.
class InputRelease {
 public:
  InputRelease(zkp_input_callback_t callback, void* user_data, uint32_t partitions)
      : callback_(callback), user_data_(user_data), told_(std::make_unique<std::atomic<bool>[]>(partitions)) {}
  bool wanted() const { return callback_ != nullptr; }
  // Tells the caller, unless it has been told already. [any-thread]
  void release(uint32_t partition) {
    if (callback_ != nullptr && !told_[partition].exchange(true)) callback_(user_data_, partition);
  }

 private:
  zkp_input_callback_t callback_;
  void* user_data_;
  std::unique_ptr<std::atomic<bool>[]> told_;
};

struct Job {
  uint64_t id = 0;
  std::shared_ptr<const LoadedKey> key;
  std::vector<zkp_partition_t> partitions;  // the caller's array, copied at submit
  std::vector<uint8_t> randomness;          // partitions × kRandomnessBytes, or empty
  int32_t gpu_index = -1;                   // -1: any device
  int32_t priority = 0;                     // higher first
  uint64_t submit_ns = 0;
  std::shared_ptr<InputRelease> input_release;  // never null once submitted

  // Guarded by the pipeline's scheduler lock.
  bool cancelled = false;
  uint32_t in_pipeline = 0;  // partitions not yet completed

  uint64_t partition_bytes() const { return key->partition_bytes(); }
};

struct Task {
  std::shared_ptr<Job> job;
  uint32_t partition = 0;
  SynthesisHandle synthesis;  // null until synthesized, and for caller-synthesized input
  uint64_t synthesis_ns = 0;
  uint64_t queued_ns = 0;      // when it entered the GPU queue
  uint64_t queue_wait_ns = 0;  // how long it waited there
  int32_t device = -1;         // the device queue it waits in (per-device mode), else -1
  // Devices it failed on with a device error, in order; it is retried only on others
  // (Pipeline::retry_elsewhere), so each device is tried at most once.
  std::vector<uint32_t> failed_on;
  // The device's restart epoch when a worker took it (Pipeline::device_back): a failure from
  // a device process that has since been replaced says nothing of the new one.
  uint64_t device_epoch = 0;
  // Its synthesis went to prove_start with ZKP_PROVE_INPUT_FINAL (Pipeline::last_attempt): the
  // prover may have taken its memory, so it is never retried.
  bool synthesis_handed_over = false;
  // The caller was told its input is free (InputRelease, after prove_wait): never retried.
  bool input_released = false;
  // An input partition's witness (ZKP_WITNESS_INPUT_JSON), computed by the key's generator at
  // synthesis: kept until the partition completes, as a caller's witness memory is.
  std::vector<std::uint8_t> generated_witness;

  const zkp_partition_t& input() const { return job->partitions[partition]; }
  bool externally_synthesized() const { return input().synthesized != nullptr; }
  // r || s for this proof, or nullptr (the prover draws them from the OS CSPRNG).
  const uint8_t* randomness() const {
    return job->randomness.empty() ? nullptr : job->randomness.data() + partition * kRandomnessBytes;
  }
};

}  // namespace zkp::host
