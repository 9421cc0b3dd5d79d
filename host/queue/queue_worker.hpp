// A zkpipe host fed from the job store: `zkpipe worker`'s loop.
//
// It claims up to as many partitions as it has free slots (the host's devices × workers per
// device × 4 unless --slots says otherwise: enough queued behind each device worker that it
// never waits on a claim, and that synthesis runs ahead; docs/FLEET.md measures it), loads each
// claim's key by path the first time it sees it and keeps it warm (serve's KeyTable, which
// also tells claim() which keys to prefer), submits the witness to the host, and writes the
// completions back in batches (Store::complete_batch; `result_batch`). A heartbeat thread with its own connection renews the
// leases of what is in flight every `heartbeat`. stop(): nothing more is claimed, the host
// cancels what has not reached a device (those leases are released, queued again at once),
// what is on a device finishes and is written, then run() returns.
//
// Each claim is also sized by the host's admission (what the pacer and the memory budget will
// let in soon, docs/FLEET.md), and passes over partitions whose gpu_index or curve this host
// cannot meet. A lost database connection is reconnected (`reconnect_for`), and a partition
// past `attempt_deadline` in the host is no longer renewed, so another worker takes it over.
// Each heartbeat also fails the fleet's partitions whose attempts reached their cap
// (Store::give_up), so that a poison partition is not reclaimed forever.
//
// Threads: run() on the caller's; the heartbeat's; the host's completion thread, which only
// converts the record and hands it to run() (no database call there).
#pragma once

#include <zkpipe/host/host.hpp>

#include "services/key_table.hpp"
#include "store.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace zkp::queue {

struct WorkerOptions {
  std::string url;
  std::string id;  // the worker's name in the store; a restart with the same id frees its old leases
  std::chrono::milliseconds lease{30000};
  std::chrono::milliseconds heartbeat{10000};
  std::chrono::milliseconds poll{500};  // idle wait between claims when no NOTIFY wakes it
  uint32_t slots = 0;                   // 0: devices × workers per device × 4
  // How long the database may stay unreachable (a restart, a failover) before run() gives up
  // and throws: meanwhile the host proves what it holds, and the results are written once the
  // worker has reconnected (retries back off from 100 ms to 2 s).
  std::chrono::milliseconds reconnect_for{60000};
  // A per-attempt deadline (0: none): a partition in the host for longer than this (a prover
  // that hangs while the process lives) is no longer renewed, so its lease expires and another
  // worker reclaims it; should this host finish it after all, the first result wins.
  std::chrono::milliseconds attempt_deadline{0};
  // Results are written in batches: one statement (one transaction) per `result_batch`
  // results or per `result_batch_wait` after the first one waiting, whichever comes first, and
  // at once when nothing else is in flight. 1: each result on its own, as it completes.
  uint32_t result_batch = 16;
  std::chrono::milliseconds result_batch_wait{20};
  // A partition that fails for a reason of this host's own (a device fault after the host's
  // device_retries on its other devices, its memory or budget, a path it cannot read) goes
  // back to the queue for another worker (a lost attempt, under the attempts cap), rather
  // than failing the partition.
  bool give_back_host_failures = true;
  // Keys unused for this long (no partition of theirs submitted or completed, none in
  // flight) are unloaded, and loaded again when a claim needs them. 0: kept loaded for good.
  std::chrono::milliseconds key_idle{0};
  // The curves this worker claims partitions of when a job constrains its curve (its
  // device indexes, for a gpu_index constraint, are the host's: 0 .. devices - 1).
  std::vector<std::string> curves = {"bn254", "bls12_381"};
  // Called with every partition's completion record and its key's host id on the host's
  // completion thread, before the worker handles it (the HTTP endpoint's metrics count them).
  // Must not block.
  std::function<void(const zkp_completion_t&, uint64_t key_id)> on_completion;
};

struct WorkerCounters {
  uint64_t claimed = 0, written = 0, dropped = 0, released = 0, lost_leases = 0, abandoned_at_start = 0;
  uint64_t reconnects = 0;  // database outages survived (either connection)
  uint64_t overdue = 0;     // attempts past the deadline, given up to other workers
  uint64_t given_up = 0;    // the fleet's partitions this worker failed at their attempts cap
  uint64_t keys_unloaded = 0;  // cold keys unloaded (key_idle)
  uint64_t returned = 0;       // host-local failures given back to the queue
};

// What `worker --http` shows, read at once. [any-thread]
struct WorkerStatus {
  WorkerCounters counters;
  size_t in_flight = 0;      // partitions claimed and not yet settled (leased, in the host)
  bool database_up = true;   // false while a connection to the store is being reconnected
  bool stopping = false;     // stop() was called
  std::vector<services::KeyEntry> keys;
  services::KeyTable::Counters key_counters;
};

class QueueWorker {
 public:
  QueueWorker(host::Host& host, WorkerOptions options);
  ~QueueWorker();
  QueueWorker(const QueueWorker&) = delete;
  QueueWorker& operator=(const QueueWorker&) = delete;

  // Until stop(); shuts the host down (cancel) before it returns. Throws queue::Error when
  // the database refuses a statement, or stays unreachable past `reconnect_for` (the worker's
  // leases then expire and others reclaim them).
  WorkerCounters run();
  // [any-thread] Asks run() to finish.
  void stop();
  // [any-thread] The counters so far, what is in flight, the database connection's state and
  // the keys loaded.
  WorkerStatus status() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace zkp::queue
