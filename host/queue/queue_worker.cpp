#include "queue_worker.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include "services/key_table.hpp"
#include "services/names.hpp"
#include "services/snarkjs_result.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace zkp::queue {

namespace {

struct Done {
  uint64_t lease_id = 0;
  uint64_t key_id = 0;     // its job ends in the key table (the key's idle clock)
  bool cancelled = false;  // never reached a device: released, not written
  PartitionResult result;
};

// A failure that another host may not have: its devices (after the host's own device_retries
// on its other devices), its memory or budget, a path it cannot read, a prover that lacks the
// feature. Given back to the queue (Store::give_back) rather than written; the attempts cap
// bounds how often.
bool host_local(int32_t status) {
  return status == ZKP_ERR_DEVICE || status == ZKP_ERR_DEVICE_LOST || status == ZKP_ERR_OUT_OF_MEMORY ||
         status == ZKP_ERR_BUDGET_EXHAUSTED || status == ZKP_ERR_NOT_FOUND || status == ZKP_ERR_UNSUPPORTED;
}

PartitionResult failure(const Claim& c, int32_t status, std::string message) {
  PartitionResult r;
  r.job_id = c.job_id;
  r.index = c.index;
  r.lease_id = c.lease_id;
  r.status = status;
  r.message = std::move(message);
  return r;
}

// The completion as the results row: the ABI's bytes and snarkjs's proof.json/public.json.
PartitionResult to_result(const Claim& c, const zkp_completion_t& rec) {
  PartitionResult r = failure(c, static_cast<int32_t>(rec.status), rec.message != nullptr ? rec.message : "");
  r.prove_ns = rec.total_ns;
  if (rec.proof != nullptr) r.proof.assign(reinterpret_cast<const char*>(rec.proof), rec.proof_size);
  if (rec.public_inputs != nullptr) r.public_inputs.assign(reinterpret_cast<const char*>(rec.public_inputs), rec.public_size);
  if (rec.status != ZKP_OK) return r;
  try {
    std::optional<services::SnarkjsFiles> files = services::snarkjs_files(rec);
    if (!files) {
      return failure(c, ZKP_ERR_UNSUPPORTED, "the prover produced no proof bytes (a simulated prover cannot serve a queue)");
    }
    r.proof_json = std::move(files->proof_json);
    r.public_json = std::move(files->public_json);
  } catch (const sdk::Error& e) {
    return failure(c, e.status(), e.what());
  }
  return r;
}

}  // namespace

struct QueueWorker::Impl {
  Impl(host::Host& h, WorkerOptions o)
      // No key budget: a worker keeps every key it has met warm, unless --key-idle-ms unloads
      // the cold ones (evict_cold_keys).
      : host(h), opt(std::move(o)), store(opt.url), beat_store(opt.url), keys(h, 0, "worker " + opt.id) {
    if (wake_fd < 0) throw sdk::Error(ZKP_ERR_INTERNAL, std::string("eventfd: ") + std::strerror(errno));
  }
  ~Impl() { ::close(wake_fd); }

  // A claim on its way through the host: the zkp_partition_t points into `claim` (the
  // witness path or bytes), so it stays put (held by unique_ptr) until its completion.
  struct InFlight {
    Claim claim;
    uint64_t key_id = 0;
    zkp_partition_t part{};
    Impl* owner = nullptr;
    std::chrono::steady_clock::time_point submitted;  // for the per-attempt deadline
    bool overdue = false;                             // past it: no longer renewed [under mu]
  };

  host::Host& host;
  const WorkerOptions opt;
  Store store;       // run()'s connection
  Store beat_store;  // the heartbeat's
  // The keys met so far, by file; each partition is a job of its key there (note_job at submit,
  // job_done when settled), which is what --key-idle-ms measures idleness by.
  services::KeyTable keys;
  uint64_t max_key_bytes = 0;  // the largest synthesis_bytes of the keys loaded [run thread]
  WorkerCounters counters;     // [under mu]: status() reads them from any thread
  bool database_up = true;     // false while a connection is being reconnected [under mu]

  std::mutex mu;
  std::condition_variable cv;                             // completions and stop wake run()
  std::map<uint64_t, std::unique_ptr<InFlight>> flight;  // by lease id
  std::vector<Done> done;
  std::set<uint64_t> lost;  // leases the heartbeat found reclaimed (counted once)
  bool stopping = false;
  // Written by stop(): ends run()'s idle wait on the database socket at once, however long
  // --poll-ms is (a SIGTERM must not wait out the poll period).
  const int wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  bool beat_stop = false;
  std::condition_variable beat_cv;
  std::exception_ptr beat_error;

  static void on_partition(void* user_data, const zkp_completion_t* rec) {
    auto* f = static_cast<InFlight*>(user_data);
    Done d;
    d.lease_id = f->claim.lease_id;
    d.key_id = f->key_id;
    d.cancelled = rec->status == ZKP_ERR_CANCELLED;
    d.result = to_result(f->claim, *rec);
    Impl& self = *f->owner;
    if (self.opt.on_completion) self.opt.on_completion(*rec, f->key_id);
    std::lock_guard lock(self.mu);
    self.done.push_back(std::move(d));
    self.cv.notify_all();
  }

  // counters.*field += n, under mu (the HTTP endpoint reads them while run() counts).
  void add(uint64_t WorkerCounters::*field, uint64_t n) {
    std::lock_guard lock(mu);
    counters.*field += n;
  }

  uint32_t slots() const {
    if (opt.slots > 0) return opt.slots;
    const zkp_host_stats_t s = host.stats();
    return std::max<uint32_t>(1, s.device_count * s.workers_per_device * 4);
  }

  // How many partitions to claim now, with `free` slots free, and the smallest batch worth a
  // claim while others are in flight. Slots cap what is held; the host's admission decides
  // how many of those it can use soon. It keeps `lookahead` partitions waiting for admission
  // (one per device worker, so that a device never waits on a claim) plus what the memory
  // budget can still grant, counted in partitions of the largest key met so far. A pacer that
  // holds partitions back, or a full budget, makes the host's pending count grow, and the
  // worker stops claiming: what it would only hold, leased and unstarted, stays claimable by
  // hosts that can start it. Before any key is known, one partition per device worker.
  struct Sizing {
    uint32_t claim = 0;
    uint32_t batch = 1;
  };
  Sizing sizing(uint32_t slots, uint32_t free) const {
    const zkp_host_stats_t st = host.stats();
    const uint64_t lookahead = std::max<uint64_t>(1, uint64_t{st.device_count} * st.workers_per_device);
    uint64_t fit_now = 0, fit_empty = 0;  // partitions the budget grants now / when idle
    if (max_key_bytes > 0) {
      fit_now = (st.budget_total_bytes - std::min(st.budget_used_bytes, st.budget_total_bytes)) / max_key_bytes;
      fit_empty = st.budget_total_bytes / max_key_bytes;
    }
    const uint64_t room = lookahead + fit_now;
    const uint64_t want = room > st.pending ? room - st.pending : 0;
    Sizing z;
    z.claim = static_cast<uint32_t>(std::min<uint64_t>(free, want));
    // Half the slots per claim (one round trip for several partitions), or half of what the
    // budget can ever hold when that is less.
    const uint64_t cap = std::min<uint64_t>(slots, lookahead + fit_empty);
    z.batch = static_cast<uint32_t>(std::max<uint64_t>(1, cap / 2));
    return z;
  }

  // Runs `op` against `st`. When it fails because the connection broke (the database
  // restarted, failed over or cannot be reached), reconnects with backoff for at most
  // opt.reconnect_for, LISTENs again if `listen`, and runs `op` again. Repeating is safe for
  // every call the worker makes: a renew, release or requeue is idempotent; a result whose
  // first write committed before the connection broke is dropped the second time (and
  // counted); a claim that committed unseen leaves leases that nobody renews, which expire
  // and are reclaimed. A call chosen as a deadlock victim is run again too. Any other error
  // on a live connection (a refused statement) propagates. The waits end early when `quit`
  // (checked under mu, woken by `wake`) turns true.
  template <class Op, class Quit>
  auto retrying(Store& st, bool listen, std::condition_variable& wake, Quit quit, Op op) -> decltype(op()) {
    // A few reconnects per call at most: one outage needs one (reconnect() waits it out), and
    // a client-side error that looks like one must not loop.
    for (int reconnects = 0, deadlocks = 0;; ++reconnects) {
      try {
        return op();
      } catch (const Error& e) {
        // A deadlock (40P01) rolled the call back whole: run it again (the store locks rows in
        // one order everywhere, so this is a safety net, not a path).
        if (e.sqlstate() == "40P01" && deadlocks++ < 3) {
          host::log().warn("worker {}: a store call was chosen as a deadlock victim; running it again", opt.id);
          --reconnects;
          continue;
        }
        if (!connection_lost(st.connection(), e) || reconnects == 3) throw;
        host::log().warn("worker {}: the queue database is unreachable ({}); reconnecting for up to {} ms", opt.id,
                         e.what(), opt.reconnect_for.count());
        reconnect(st, listen, wake, quit, e);
      }
    }
  }

  template <class Quit>
  void reconnect(Store& st, bool listen, std::condition_variable& wake, Quit quit, const Error& cause) {
    const auto start = std::chrono::steady_clock::now();
    std::chrono::milliseconds backoff(100);
    {
      std::lock_guard lock(mu);
      database_up = false;
    }
    // The first try is at once: the call may have met a connection the database dropped while it
    // sat idle (a restart that is over), and a worker told to stop (quit) still gets that one
    // try, so that its last results and releases are written instead of its exit failing.
    for (bool first = true;; first = false) {
      if (!first) {
        std::unique_lock lock(mu);
        if (wake.wait_for(lock, backoff, quit)) throw cause;
      }
      try {
        st.connection().reset();
        if (listen) st.connection().exec(std::string("LISTEN ") + kWorkChannel);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        std::lock_guard lock(mu);
        ++counters.reconnects;
        database_up = true;
        host::log().info("worker {}: reconnected to the queue database after {} ms", opt.id, ms.count());
        return;
      } catch (const RefusedError&) {
        throw;  // the server is back but turns this worker away (a changed password, a dropped role): no retry helps
      } catch (const Error& e) {
        if (std::chrono::steady_clock::now() - start >= opt.reconnect_for) {
          throw UnavailableError("the queue database stayed unreachable for " +
                                 std::to_string(opt.reconnect_for.count()) + " ms: " + e.what());
        }
      }
      backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
    }
  }

  // retrying() on run()'s connection, which LISTENs for new work; stop() ends the waits.
  template <class Op>
  auto main_retrying(Op op) -> decltype(op()) {
    return retrying(store, true, cv, [this] { return stopping; }, op);
  }

  // Results wait here for their batch [run thread].
  std::vector<PartitionResult> unwritten;
  std::chrono::steady_clock::time_point first_unwritten;

  // A host-local failure goes back to the queue; others stay away from it for a lease
  // period's head start, then this worker may take it again (a fleet of one).
  void give_back(const PartitionResult& r) {
    const std::string why = std::string(zkp_status_name(r.status)) + ": " + r.message;
    if (main_retrying([&] { return store.give_back(opt.id, r.lease_id, why, opt.lease); })) {
      add(&WorkerCounters::returned, 1);
      host::log().warn("worker {}: job {} partition {} failed here ({}); given back to the queue", opt.id, r.job_id,
                       r.index, why);
    }
  }

  void write(PartitionResult r) {
    if (opt.give_back_host_failures && host_local(r.status)) {
      give_back(r);
      return;
    }
    if (unwritten.empty()) first_unwritten = std::chrono::steady_clock::now();
    unwritten.push_back(std::move(r));
    if (unwritten.size() >= std::max<uint32_t>(1, opt.result_batch)) flush();
  }

  // Writes what waits, in one statement. Repeated after a reconnect like every call: a batch
  // that committed unseen is dropped (and counted) the second time.
  void flush() {
    if (unwritten.empty()) return;
    const std::vector<bool> ok = main_retrying([&] { return store.complete_batch(opt.id, unwritten); });
    for (size_t i = 0; i < unwritten.size(); ++i) {
      if (ok[i]) {
        add(&WorkerCounters::written, 1);
      } else {
        add(&WorkerCounters::dropped, 1);
        host::log().info("worker {}: job {} partition {}: a result was already written; ours dropped", opt.id,
                         unwritten[i].job_id, unwritten[i].index);
      }
    }
    unwritten.clear();
  }

  // How long run() may wait before the batch is due (forever: max()).
  std::chrono::milliseconds until_flush() const {
    if (unwritten.empty()) return std::chrono::milliseconds::max();
    const auto due = first_unwritten + opt.result_batch_wait;
    const auto now = std::chrono::steady_clock::now();
    return due <= now ? std::chrono::milliseconds(0)
                      : std::chrono::duration_cast<std::chrono::milliseconds>(due - now) + std::chrono::milliseconds(1);
  }

  // Forgets what completed (the heartbeat stops renewing it: a write takes milliseconds, a
  // lease seconds), then writes or releases it.
  void settle(std::vector<Done>& batch) {
    {
      std::lock_guard lock(mu);
      for (const Done& d : batch) flight.erase(d.lease_id);
    }
    for (const Done& d : batch) keys.job_done(d.key_id);
    std::vector<uint64_t> release;
    for (Done& d : batch) {
      if (d.cancelled) {
        release.push_back(d.lease_id);
      } else {
        write(d.result);
      }
    }
    if (!release.empty()) add(&WorkerCounters::released, main_retrying([&] { return store.release(opt.id, release); }));
  }

  void submit(Claim claim) {
    auto f = std::make_unique<InFlight>();
    f->claim = std::move(claim);
    f->owner = this;
    const Claim& c = f->claim;
    uint64_t key_id = 0;
    try {
      const services::KeyTable::Loaded loaded = keys.load(c.key_path, services::key_format_from_name(c.key_format).value_or(ZKP_KEY_FORMAT_ZKEY));
      key_id = loaded.key.id;
      max_key_bytes = std::max(max_key_bytes, loaded.key.info.synthesis_bytes);
    } catch (const sdk::Error& e) {
      write(failure(c, e.status(), std::string("loading the key: ") + e.what()));
      return;
    }
    f->part = sdk::make_struct<zkp_partition_t>();
    f->part.witness = sdk::make_struct<zkp_witness_t>();
    if (c.witness_path.empty()) {
      f->part.witness.kind = ZKP_WITNESS_WTNS_BUFFER;
      f->part.witness.data = c.witness_bytes.data();
      f->part.witness.size = c.witness_bytes.size();
    } else {
      f->part.witness.kind = ZKP_WITNESS_WTNS_FILE;
      f->part.witness.path = c.witness_path.c_str();
    }
    auto job = sdk::make_struct<zkp_job_t>();
    job.key_id = key_id;
    job.partitions = &f->part;
    job.partition_count = 1;
    job.gpu_index = c.gpu_index;  // claim() only hands out a gpu_index this host has
    job.priority = c.priority;
    job.on_partition = &Impl::on_partition;
    job.user_data = f.get();
    const uint64_t lease_id = c.lease_id;
    f->key_id = key_id;
    f->submitted = std::chrono::steady_clock::now();
    InFlight* raw = f.get();
    {
      std::lock_guard lock(mu);
      flight.emplace(lease_id, std::move(f));
    }
    keys.note_job(key_id);
    try {
      host.submit(job);
    } catch (const sdk::Error& e) {
      keys.job_done(key_id, false);
      const PartitionResult r = failure(raw->claim, e.status(), e.what());
      {
        std::lock_guard lock(mu);
        flight.erase(lease_id);
      }
      if (e.status() == ZKP_ERR_CANCELLED) {
        add(&WorkerCounters::released, main_retrying([&] { return store.release(opt.id, {lease_id}); }));
      } else {
        write(r);
      }
    }
  }

  // Unloads the keys that no partition has used for opt.key_idle and that none in flight
  // needs (--key-idle-ms), so that a worker that met many keys does not hold them all, and
  // its claims' budget fit counts in partitions of the keys it still has.
  void evict_cold_keys() {
    if (opt.key_idle.count() <= 0) return;
    const std::vector<services::KeyEntry> unloaded = keys.unload_idle(opt.key_idle);
    if (unloaded.empty()) return;
    for (const services::KeyEntry& k : unloaded) {
      add(&WorkerCounters::keys_unloaded, 1);
      host::log().info("worker {}: key {} unloaded: unused for over {} ms", opt.id, k.path, opt.key_idle.count());
    }
    max_key_bytes = keys.max_synthesis_bytes();
  }

  // After run() failed (a refused statement, the database gone for good): what this worker
  // has proved or holds must not turn into lost attempts, which a restart's abandon_all would
  // charge, failing proved partitions at their cap. So, once, on this connection if it still
  // works and without the reconnect waits: each proved result is written on its own (one bad
  // row cannot take the others with it), and every other lease is released unstarted.
  void salvage() noexcept {
    try {
      if (!store.connection().ok()) return;
      std::vector<Done> batch;
      {
        std::lock_guard lock(mu);
        batch.swap(done);
        for (const auto& entry : flight) {
          const uint64_t id = entry.first;  // (clang 14 cannot capture a structured binding)
          if (std::none_of(batch.begin(), batch.end(), [&](const Done& d) { return d.lease_id == id; })) {
            orphan_leases.push_back(id);
          }
        }
        flight.clear();
      }
      for (Done& d : batch) {
        if (d.cancelled || (opt.give_back_host_failures && host_local(d.result.status))) {
          orphan_leases.push_back(d.lease_id);
        } else {
          unwritten.push_back(std::move(d.result));
        }
      }
      uint64_t written = 0;
      for (const PartitionResult& r : unwritten) {
        try {
          written += store.complete(opt.id, r) ? 1 : 0;
        } catch (const Error& e) {
          host::log().warn("worker {}: job {} partition {}: its result could not be written ({}); lease released",
                           opt.id, r.job_id, r.index, e.what());
          orphan_leases.push_back(r.lease_id);
        }
      }
      unwritten.clear();
      const uint64_t released = store.release(opt.id, orphan_leases);
      host::log().warn("worker {}: after the failure, {} results written and {} leases released", opt.id, written,
                       released);
    } catch (const std::exception& e) {
      host::log().warn("worker {}: after the failure, its leases could not be released ({}); they expire", opt.id,
                       e.what());
    }
  }
  std::vector<uint64_t> orphan_leases;  // salvage()'s

  void heartbeat_loop() {
    try {
      std::unique_lock lock(mu);
      while (!beat_stop) {
        beat_cv.wait_for(lock, opt.heartbeat, [&] { return beat_stop; });
        if (beat_stop) break;
        std::vector<uint64_t> ids;
        const auto now = std::chrono::steady_clock::now();
        for (const auto& [id, f] : flight) {
          if (opt.attempt_deadline.count() > 0 && now - f->submitted > opt.attempt_deadline && !f->overdue) {
            // The prover has held it too long (hung, or far slower than expected): let the
            // lease run out so that a healthy host takes it. It stays in flight here, as the
            // device it is on is still busy with it.
            f->overdue = true;
            ++counters.overdue;
            host::log().warn("worker {}: job {} partition {} has been in the host for over {} ms; lease {} is no longer "
                             "renewed, another worker reclaims it when it expires",
                             opt.id, f->claim.job_id, f->claim.index, opt.attempt_deadline.count(), id);
          }
          if (!f->overdue) ids.push_back(id);
        }
        lock.unlock();
        const std::vector<uint64_t> held = retrying(beat_store, false, beat_cv, [this] { return beat_stop; },
                                                    [&] { return beat_store.renew(opt.id, ids, opt.lease); });
        // Every worker reaps the fleet's poison partitions (those whose lost attempts reached
        // their cap) once a heartbeat: one statement, and a row another worker is reaping is
        // skipped.
        const uint64_t failed = retrying(beat_store, false, beat_cv, [this] { return beat_stop; },
                                         [&] { return beat_store.give_up(); });
        lock.lock();
        if (failed > 0) {
          counters.given_up += failed;
          host::log().warn("worker {}: {} partitions failed: their attempts reached max_attempts", opt.id, failed);
        }
        const std::set<uint64_t> kept(held.begin(), held.end());
        for (uint64_t id : ids) {
          // Still ours to run but no longer held: another worker reclaimed it after it
          // expired (this process was stopped or cut off). It runs on; the first result wins.
          if (!kept.count(id) && flight.count(id) && lost.insert(id).second) {
            ++counters.lost_leases;
            host::log().warn("worker {}: lease {} was reclaimed by another worker (expired)", opt.id, id);
          }
        }
      }
    } catch (...) {
      std::lock_guard lock(mu);
      if (beat_stop) return;  // run() is finishing: a reconnect it cut short is no failure
      beat_error = std::current_exception();
      stopping = true;
      cv.notify_all();
    }
  }
};

QueueWorker::QueueWorker(host::Host& host, WorkerOptions options)
    : impl_(std::make_unique<Impl>(host, std::move(options))) {}

QueueWorker::~QueueWorker() = default;

void QueueWorker::stop() {
  std::lock_guard lock(impl_->mu);
  impl_->stopping = true;
  impl_->cv.notify_all();
  const uint64_t one = 1;
  (void)!::write(impl_->wake_fd, &one, sizeof one);
}

WorkerStatus QueueWorker::status() const {
  WorkerStatus out;
  {
    std::lock_guard lock(impl_->mu);
    out.counters = impl_->counters;
    out.in_flight = impl_->flight.size();
    out.database_up = impl_->database_up;
    out.stopping = impl_->stopping;
  }
  out.keys = impl_->keys.list();
  out.key_counters = impl_->keys.counters();
  return out;
}

WorkerCounters QueueWorker::run() {
  Impl& s = *impl_;
  const uint64_t abandoned = s.main_retrying([&] { return s.store.abandon_all(s.opt.id); });
  s.add(&WorkerCounters::abandoned_at_start, abandoned);
  if (abandoned > 0) {
    host::log().info("worker {}: requeued {} leases of this id's previous run", s.opt.id, abandoned);
  }
  s.store.connection().exec(std::string("LISTEN ") + kWorkChannel);
  const uint32_t slots = s.slots();
  Capabilities caps;
  caps.device_count = s.host.stats().device_count;
  caps.curves = s.opt.curves;
  host::log().info("worker {}: {} slots, lease {} ms, heartbeat {} ms", s.opt.id, slots, s.opt.lease.count(),
                   s.opt.heartbeat.count());
  std::thread beat([&] { s.heartbeat_loop(); });
  std::exception_ptr error;
  try {
    for (;;) {
      std::vector<Done> batch;
      size_t in_flight = 0;
      {
        std::lock_guard lock(s.mu);
        if (s.stopping) break;
        batch.swap(s.done);
        in_flight = s.flight.size();
      }
      s.settle(batch);
      in_flight -= batch.size();
      s.evict_cold_keys();
      // Results are written when their batch is full (write()), when it is due, or when
      // nothing else is in flight to fill it; before the claim, so that a partition that
      // kills this process cannot take finished results with it.
      if (in_flight == 0 || s.until_flush().count() == 0) s.flush();
      // Claim in batches (sizing()), or whatever the host can use when idle.
      const uint32_t free = slots > in_flight ? slots - static_cast<uint32_t>(in_flight) : 0;
      const Impl::Sizing z = s.sizing(slots, free);
      size_t claimed = 0;
      if (z.claim > 0 && (in_flight == 0 || z.claim >= z.batch)) {
        std::vector<std::string> warm;
        for (const services::KeyEntry& k : s.keys.list()) warm.push_back(k.asked_path);
        std::vector<Claim> claims =
            s.main_retrying([&] { return s.store.claim(s.opt.id, z.claim, s.opt.lease, warm, caps); });
        claimed = claims.size();
        s.add(&WorkerCounters::claimed, claimed);
        for (Claim& c : claims) s.submit(std::move(c));
      }
      if (claimed > 0 || !batch.empty()) continue;
      if (in_flight == 0) {
        // New work, or the poll period.
        (void)s.main_retrying([&] { return s.store.connection().wait_notification(s.opt.poll, s.wake_fd); });
      } else {
        std::unique_lock lock(s.mu);
        s.cv.wait_for(lock, std::min(s.opt.poll, s.until_flush()), [&] { return s.stopping || !s.done.empty(); });
      }
    }
  } catch (...) {
    error = std::current_exception();
  }
  // What has not reached a device comes back cancelled (released); the rest finishes.
  s.host.shutdown(ZKP_SHUTDOWN_CANCEL);
  if (!error) {
    try {
      std::vector<Done> batch;
      std::vector<uint64_t> orphans;
      {
        std::lock_guard lock(s.mu);
        batch.swap(s.done);
      }
      s.settle(batch);
      s.flush();
      {
        std::lock_guard lock(s.mu);
        for (const auto& [id, f] : s.flight) orphans.push_back(id);
        s.flight.clear();
      }
      s.add(&WorkerCounters::released, s.main_retrying([&] { return s.store.release(s.opt.id, orphans); }));
    } catch (...) {
      error = std::current_exception();
    }
  }
  if (error) s.salvage();
  {
    std::lock_guard lock(s.mu);
    s.beat_stop = true;
    s.beat_cv.notify_all();
  }
  beat.join();
  if (!error && s.beat_error) error = s.beat_error;
  if (error) std::rethrow_exception(error);
  std::lock_guard lock(s.mu);
  return s.counters;
}

}  // namespace zkp::queue
