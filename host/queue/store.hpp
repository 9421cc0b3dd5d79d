// The job store: what enqueue, jobs and the worker do to the tables of schema.hpp. Each call
// is one transaction (one statement where it can be), so a process killed between two calls
// leaves the store consistent. The lease protocol (docs/FLEET.md):
//
//   claim     picks up to N claimable partitions (queued, or leased with an expired lease
//             that is not the caller's own: a stalled worker still proves what it holds),
//             highest priority first, then those whose key the caller has warm, then oldest
//             (read from two index scans of N rows, not a sort of the backlog),
//             with FOR UPDATE SKIP LOCKED so concurrent claimers never wait on each other or
//             pick the same row; each becomes a lease (a row of zkpipe.leases) that expires
//             `lease` after the claim unless renewed.
//   renew     the heartbeat: pushes the expiry of the caller's live leases; returns the ones
//             it still holds (a lease reclaimed by another worker after it expired is lost).
//   complete  writes a partition's result once: the first result for a partition wins,
//             whoever holds the lease; a later one is dropped and counted in
//             zkpipe.dropped_results, also when both are in one batch. The last result of a job marks it done and sends
//             NOTIFY zkpipe_job_done, '<job id>' (delivered on commit).
//   release   gives leases back unstarted (a worker shutting down): queued again, at once.
//   give_back a host-local failure (schema version 3): the partition is queued again for
//             another worker rather than failed, as a lost attempt.
//   give_up   the attempts cap (schema version 3): an attempt whose lease expired, was
//             abandoned or was given back is lost; a partition with max_attempts of them is failed with the
//             history of its attempts in the message, not claimed again, so that a partition
//             that kills every worker that takes it cannot take the fleet down.
//
// Constraints (schema version 2): a job may name a device index and a curve; claim() passes
// over the partitions its caller's Capabilities cannot satisfy, so they wait for a worker
// that can (forever, if none ever joins: `zkpipe jobs` shows them queued).
#pragma once

#include "pg.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zkp::queue {

// The channel a job's completion is announced on; the payload is the job id.
inline constexpr const char* kJobDoneChannel = "zkpipe_job_done";
// The channel enqueue announces new work on, so idle workers need not wait a poll period.
inline constexpr const char* kWorkChannel = "zkpipe_work";

struct PartitionInput {
  std::string witness_path;   // a .wtns on storage every worker sees (absolute), or
  std::string witness_bytes;  // the .wtns bytes themselves, for small witnesses
};

struct JobSpec {
  std::string key_path;  // absolute, on shared storage
  std::string key_format = "zkey";
  int32_t priority = 0;
  int32_t gpu_index = -1;  // -1: any device; else only hosts with this device index claim it
  std::string curve;       // "": any worker; "bn254" or "bls12_381": only workers declaring it
  int32_t max_attempts = 0;  // lost attempts before a partition is failed; 0: the store's default
  std::vector<PartitionInput> partitions;
};

// What a claimer can run: the partitions of a job constrained otherwise are passed over.
struct Capabilities {
  uint32_t device_count = 1;                           // a gpu_index below this is satisfiable
  std::vector<std::string> curves = {"bn254", "bls12_381"};  // the curves it proves
};

struct Claim {
  uint64_t job_id = 0;
  uint32_t index = 0;
  uint64_t lease_id = 0;
  std::string key_path;
  std::string key_format;
  std::string witness_path;   // empty when the bytes are in the row
  std::string witness_bytes;
  int32_t priority = 0;
  int32_t gpu_index = -1;  // the job's device constraint (-1: any)
  uint32_t attempt = 0;    // 1 on the first claim
};

struct PartitionResult {
  uint64_t job_id = 0;
  uint32_t index = 0;
  uint64_t lease_id = 0;
  int32_t status = 0;  // zkp_status_t
  std::string message;
  std::string proof, public_inputs;     // the C ABI's bytes
  std::string proof_json, public_json;  // snarkjs's files; empty for a failure
  uint64_t prove_ns = 0;
};

struct JobStatus {
  uint64_t id = 0;
  std::string state;  // open, done
  std::string key_path;
  int32_t priority = 0;
  uint32_t partitions = 0, succeeded = 0, failed = 0, leased = 0;
  uint64_t dropped = 0;  // late second results
  std::string created_at, finished_at;
};

// One partition's row of zkpipe.results, as the C API hands it out.
struct StoredResult {
  bool written = false;  // false: no result yet (the rest is empty)
  int32_t status = 0;
  std::string worker, message;
  std::string proof, public_inputs;     // the C ABI's bytes
  std::string proof_json, public_json;  // snarkjs's files
  uint64_t prove_ns = 0;
};

struct PartitionStatus {
  uint32_t index = 0;
  std::string state;
  uint32_t attempts = 0;
  std::string worker;  // the lease holder, or the result's writer
  std::optional<int32_t> status;
  std::string message, proof_json, public_json;
};

// One lease of a partition: one attempt at it (zkpipe.leases).
struct Attempt {
  uint32_t index = 0;
  uint64_t lease_id = 0;
  std::string worker, started, ended;  // ended: "" while it is held
  std::string outcome;                 // completed, released, expired, abandoned; "" while held
};

class Store {
 public:
  // Connects and checks the schema version (require_current_schema).
  explicit Store(const std::string& url);

  Connection& connection() { return c_; }

  uint64_t enqueue(const JobSpec& job);

  std::vector<Claim> claim(const std::string& worker, uint32_t max, std::chrono::milliseconds lease,
                           const std::vector<std::string>& warm_keys, const Capabilities& caps = {});
  // The subset of `lease_ids` the worker still holds, renewed.
  std::vector<uint64_t> renew(const std::string& worker, const std::vector<uint64_t>& lease_ids,
                              std::chrono::milliseconds lease);
  // Back to queued, at once; returns how many were still held.
  uint64_t release(const std::string& worker, const std::vector<uint64_t>& lease_ids);
  // Every lease `worker` holds (a restarted worker's previous life): returns how many.
  uint64_t abandon_all(const std::string& worker);
  // A failure of the caller's own (a device fault after the host's device_retries, a path it
  // cannot read, its memory): the partition goes back to the queue as a lost attempt
  // (outcome 'returned', `why` kept in the lease) rather than failing, and for `avoid_for`
  // only other workers may claim it. At its cap it fails (give_up) at once. False when the
  // worker no longer held the lease (another proves it).
  bool give_back(const std::string& worker, uint64_t lease_id, const std::string& why,
                 std::chrono::milliseconds avoid_for);
  // Fails the partitions whose lost attempts reached their max_attempts (zkpipe.give_up):
  // returns how many. abandon_all() calls it, and the worker's heartbeat, so that a poison
  // partition is failed within a heartbeat of its last lease's expiry.
  uint64_t give_up();
  // Every attempt at the job's partitions, by partition then in order.
  std::vector<Attempt> attempts(uint64_t job_id);
  // The max_attempts a job gets when its enqueue names none (zkpipe.settings).
  int32_t default_max_attempts();
  void set_default_max_attempts(int32_t n);
  // True if written, false if the partition already had its result (dropped and counted).
  bool complete(const std::string& worker, const PartitionResult& result);
  // Several results in one statement (one round trip, one transaction), each exactly as
  // complete() writes it: returns, per result, whether it was written.
  std::vector<bool> complete_batch(const std::string& worker, const std::vector<PartitionResult>& results);

  std::vector<JobStatus> jobs(uint32_t limit);
  std::optional<JobStatus> job(uint64_t id);
  std::vector<PartitionStatus> partitions(uint64_t job_id, bool with_proofs);
  // Partition `index` of the job's result; nullopt when there is no such partition.
  std::optional<StoredResult> result(uint64_t job_id, uint32_t index);
  // Waits until the job is done or `timeout` passes (LISTEN on kJobDoneChannel, then a
  // re-read, so a NOTIFY sent before the LISTEN is not missed). Returns the last status read.
  // A connection lost on the way (the database restarted or failed over while the fleet works
  // on) is made again, with backoff, until the deadline: only a database still away then ends
  // the wait with UnavailableError (exit 75); a refused login or statement ends it at once.
  std::optional<JobStatus> wait_done(uint64_t id, std::chrono::milliseconds timeout);

 private:
  Connection c_;
};

}  // namespace zkp::queue
