// The keys a long-running host holds (serve's LoadKey, the fleet worker's claims), by id, and
// by file: a LoadKey of a file already loaded (same
// canonical path, format, size and modification time) returns the loaded key's id, warm; a
// file changed since gets a new load and a new id.
//
// Keys are kept warm under a budget (serve.key_budget; 0: none). A key is charged its file's
// size, the bytes of bases a prover holds on each device for it. A load that would exceed the
// budget first unloads idle keys, least recently used first (a key is used when it is loaded,
// found warm, or a job is submitted with it); a key with jobs open is never evicted (nor
// would the host unload it). A load that could not fit even with every idle key evicted fails
// with ZKP_ERR_BUDGET_EXHAUSTED naming the budget, and evicts nothing; every eviction is
// logged and counted.
//
// Keys can also be unloaded when idle (the worker's --key-idle-ms): unload_idle() unloads every
// key with no job open whose last use is older than a given age.
//
// Locking: load_mu_ serializes loads and unloads (a key is loaded once even when two clients
// ask at once; ListKeys does not wait for a load), mu_ guards the map; load_mu_ before mu_.
#pragma once

#include <zkpipe/host/host.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace zkp::services {

struct KeyEntry {
  uint64_t id = 0;
  std::string path;        // canonical
  std::string asked_path;  // as the first load of it named it (the fleet's jobs name keys so)
  zkp_key_format_t format = ZKP_KEY_FORMAT_ZKEY;
  std::string witness_generator;  // canonical, or "": part of the key's identity
  uint64_t file_size = 0;  // what the key is charged against the budget
  int64_t file_mtime_ns = 0;
  zkp_key_info_t info{};
  uint64_t loaded_unix_ms = 0;
  uint64_t load_ns = 0;
  uint64_t jobs_submitted = 0;
  uint64_t last_used = 0;  // the table's use counter at the key's latest use (LRU order)
  std::chrono::steady_clock::time_point used_at;  // the clock's time of that use (unload_idle)
  uint64_t open_jobs = 0;  // jobs submitted with the key and not finished: it is in use
};

class KeyTable {
 public:
  using Clock = std::chrono::steady_clock::time_point (*)();
  // budget_bytes 0: no budget. `owner` starts the table's log lines ("serve", "worker w1");
  // `clock` stamps each use (a test hands in its own).
  KeyTable(host::Host& host, uint64_t budget_bytes, std::string owner = "serve",
           Clock clock = &std::chrono::steady_clock::now)
      : host_(host), budget_(budget_bytes), owner_(std::move(owner)), clock_(clock) {}

  struct Loaded {
    KeyEntry key;
    bool already_loaded = false;
  };
  // Throws zkp::sdk::Error: ZKP_ERR_NOT_FOUND for a missing file, ZKP_ERR_BUDGET_EXHAUSTED
  // when the key cannot fit in the budget, the host's errors. Every throw is counted
  // (Counters::failed).
  // `witness_generator`: the circuit's generator plugin (zkp_key_source_t.witness_generator),
  // or "": the same file with another generator is another key.
  Loaded load(const std::string& path, zkp_key_format_t format, const std::string& witness_generator = "");
  // Throws the host's ZKP_ERR_INVALID_ARGUMENT while partitions of the key are in flight,
  // ZKP_ERR_NOT_FOUND for an unknown id.
  void unload(uint64_t key_id);
  std::vector<KeyEntry> list() const;
  size_t size() const;
  // A job is about to be submitted with the key: counted (ListKeys reports it), the key marked
  // used and in use until job_done (called also when the submit fails). [any-thread]
  void note_job(uint64_t key_id);
  // submitted false: the submit failed, and the job is not counted either.
  void job_done(uint64_t key_id, bool submitted = true);  // [any-thread, the completion thread too]
  // True if `key_id` was evicted for the budget (so a job that names it can say why).
  bool evicted(uint64_t key_id) const;
  // Unloads the keys with no job open whose last use is at least `idle` old, and returns them.
  // A key the host refuses to unload (partitions of it still in flight there) stays, for a
  // later call. [any-thread]
  std::vector<KeyEntry> unload_idle(std::chrono::nanoseconds idle);
  // The largest synthesis_bytes of the keys loaded (0 when none is).
  uint64_t max_synthesis_bytes() const;

  struct Counters {
    uint64_t loads = 0;      // keys loaded from their files
    uint64_t hits = 0;       // LoadKey answered with a key already loaded
    uint64_t evictions = 0;  // idle keys unloaded to make room
    uint64_t refused = 0;    // loads refused: the budget could not make room
    uint64_t failed = 0;     // loads that failed, for any reason (the refused ones too)
    uint64_t used_bytes = 0;
    uint64_t budget_bytes = 0;
  };
  Counters counters() const;

 private:
  Loaded load_uncounted(const std::string& path, zkp_key_format_t format, const std::string& witness_generator);
  // Unloads idle keys, least recently used first, until `needed` more bytes fit. Under load_mu_.
  void make_room(uint64_t needed, const std::string& for_path);

  host::Host& host_;
  const uint64_t budget_;
  const std::string owner_;
  const Clock clock_;
  std::mutex load_mu_;
  mutable std::mutex mu_;
  std::map<uint64_t, KeyEntry> keys_;
  std::set<uint64_t> evicted_;
  uint64_t use_clock_ = 0;
  Counters counters_;
};

}  // namespace zkp::services
