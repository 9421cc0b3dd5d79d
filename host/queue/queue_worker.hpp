// A zkpipe host fed from the job store: `zkpipe worker`'s loop.
//
// It claims as many partitions as it has free slots (the host's devices × workers per
// device × 4 unless --slots says otherwise: enough queued behind each device worker that it
// never waits on a claim, and that synthesis runs ahead; docs/FLEET.md measures it), loads each
// claim's key by path the first time it sees it and keeps it warm (serve's KeyTable, which
// also tells claim() which keys to prefer), submits the witness to the host, and writes each
// completion back (Store::complete). A heartbeat thread with its own connection renews the
// leases of what is in flight every `heartbeat`. stop(): nothing more is claimed, the host
// cancels what has not reached a device (those leases are released, queued again at once),
// what is on a device finishes and is written, then run() returns.
//
// Threads: run() on the caller's; the heartbeat's; the host's completion thread, which only
// converts the record and hands it to run() (no database call there).
#pragma once

#include <zkpipe/host/host.hpp>

#include "store.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace zkp::queue {

struct WorkerOptions {
  std::string url;
  std::string id;  // the worker's name in the store; a restart with the same id frees its old leases
  std::chrono::milliseconds lease{30000};
  std::chrono::milliseconds heartbeat{10000};
  std::chrono::milliseconds poll{500};  // idle wait between claims when no NOTIFY wakes it
  uint32_t slots = 0;                   // 0: devices × workers per device × 4
};

struct WorkerCounters {
  uint64_t claimed = 0, written = 0, dropped = 0, released = 0, lost_leases = 0, abandoned_at_start = 0;
};

class QueueWorker {
 public:
  QueueWorker(host::Host& host, WorkerOptions options);
  ~QueueWorker();
  QueueWorker(const QueueWorker&) = delete;
  QueueWorker& operator=(const QueueWorker&) = delete;

  // Until stop(); shuts the host down (cancel) before it returns. Throws queue::Error when
  // the database fails (the worker's leases then expire and others reclaim them).
  WorkerCounters run();
  // [any-thread] Asks run() to finish.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace zkp::queue
