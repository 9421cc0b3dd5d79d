// zkpipe_fleet_measure URL ZKEY WTNS [N [SLOTS...]]: the measured figures of docs/FLEET.md, printed as a
// table (a measurement run by hand through measure.sh, not a test: nothing here passes or fails
// on speed).
//   store:      claims/s and results/s of the job store alone: N partitions enqueued, claimed in
//               batches of B and each completed with a small stand-in result, no prover; then
//               the results written K to a statement (complete_batch). With
//               ZKPIPE_MEASURE_STORE_ONLY set, it stops there.
//   backlog:    with ZKPIPE_MEASURE_BACKLOG=120,10000,100000 (queued partitions), instead of the
//               rest: claims of 10 (each released again, so the backlog stays) against each
//               backlog, by Store::claim and by the claim statement before schema 4 (a sort of
//               the backlog, kept below as the reference), interleaved in one run.
//   end to end: the same N real partitions (the cpu prover, the host's defaults) proved by
//               one in-process host (one job of N partitions) and by one `zkpipe worker` loop
//               (QueueWorker) on the same host configuration, enqueue to the job's completion,
//               with results written one by one and in batches; the difference per partition
//               is what the queue costs.
// It writes into the database it is given: point it at a scratch one (measure.sh makes one).
#include <zkpipe/host/clock.hpp>
#include <zkpipe/host/host.hpp>
#include <zkpipe/sdk/error.hpp>

#include "queue_worker.hpp"
#include "schema.hpp"
#include "store.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

using namespace zkp;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

queue::JobSpec job_of(const std::string& zkey, const std::string& wtns, uint32_t n) {
  queue::JobSpec job;
  job.key_path = zkey;
  job.partitions.assign(n, queue::PartitionInput{wtns, ""});
  return job;
}

queue::PartitionResult stand_in(const queue::Claim& c);

// Store::claim's statement before schema version 4: its ORDER BY (priority, then warm keys,
// then age) matched no index, so every claim sorted the whole claimable backlog. Kept only as
// the reference of measure_backlog.
constexpr const char* kClaimBeforeSchema4 =
    "WITH picked AS ("
    "  SELECT job_id, idx, lease_id AS old_lease FROM zkpipe.partitions"
    "  WHERE ((state = 'queued' AND lost_attempts < max_attempts)"
    "         OR (state = 'leased' AND lease_expires < now() AND lost_attempts + 1 < max_attempts))"
    "   AND (returned_until IS NULL OR returned_until < now() OR returned_by <> $1)"
    "   AND (gpu_index IS NULL OR gpu_index < $5) AND (curve IS NULL OR curve = ANY($6::text[]))"
    "  ORDER BY priority DESC, (key_path = ANY($3::text[])) DESC, job_id, idx"
    "  LIMIT $2 FOR UPDATE SKIP LOCKED),"
    " fresh AS ("
    "  INSERT INTO zkpipe.leases (job_id, idx, worker, expires_at)"
    "  SELECT job_id, idx, $1, now() + $4 * interval '1 millisecond' FROM picked"
    "  RETURNING id, job_id, idx, expires_at)"
    " UPDATE zkpipe.partitions p SET state = 'leased', lease_id = f.id, lease_worker = $1,"
    "  lease_expires = f.expires_at, attempts = p.attempts + 1"
    " FROM fresh f WHERE p.job_id = f.job_id AND p.idx = f.idx RETURNING f.id";

void measure_backlog(queue::Store& store, const std::string& zkey, const std::string& wtns, const std::string& sizes) {
  using queue::Param;
  constexpr uint32_t kBatch = 10, kCalls = 200;
  std::printf("%-28s %10s %16s %16s %10s\n", "claims against a backlog", "queued", "ms/claim (now)",
              "ms/claim (before)", "claims/s");
  size_t at = 0;
  while (at < sizes.size()) {
    const size_t comma = sizes.find(',', at);
    const uint32_t queued = static_cast<uint32_t>(std::stoul(sizes.substr(at, comma - at)));
    at = comma == std::string::npos ? sizes.size() : comma + 1;
    store.connection().exec("TRUNCATE zkpipe.jobs CASCADE");
    for (uint32_t left = queued; left > 0;) {  // jobs of 10k partitions, as a busy fleet holds
      const uint32_t n = std::min<uint32_t>(left, 10000);
      store.enqueue(job_of(zkey, wtns, n));
      left -= n;
    }
    store.connection().exec("ANALYZE zkpipe.partitions");
    double now_s = 0, before_s = 0;
    for (uint32_t i = 0; i < kCalls; ++i) {
      auto t0 = Clock::now();
      const std::vector<queue::Claim> claims = store.claim("measure", kBatch, std::chrono::seconds(60), {zkey});
      now_s += seconds_since(t0);
      std::vector<uint64_t> ids;
      for (const queue::Claim& c : claims) ids.push_back(c.lease_id);
      store.release("measure", ids);
      t0 = Clock::now();
      const queue::Result r = store.connection().exec(
          kClaimBeforeSchema4, {Param::text("measure"), Param::integer(kBatch), Param::text(queue::text_array({zkey})),
                                Param::integer(60000), Param::integer(1), Param::text("{bn254,bls12_381}")});
      before_s += seconds_since(t0);
      ids.clear();
      for (int row = 0; row < r.rows(); ++row) ids.push_back(static_cast<uint64_t>(r.integer(row, 0)));
      store.release("measure", ids);
    }
    std::printf("%-28s %10u %16.2f %16.2f %10.0f\n", "", queued, 1000.0 * now_s / kCalls, 1000.0 * before_s / kCalls,
                kBatch * kCalls / now_s);
  }
}

void measure_store(queue::Store& store, const std::string& zkey, const std::string& wtns, uint32_t n) {
  std::printf("%-28s %8s %10s %10s %12s\n", "store (no prover)", "batch", "claims/s", "results/s", "ms/claim call");
  for (uint32_t batch : {1u, 10u, 50u}) {
    store.enqueue(job_of(zkey, wtns, n));
    uint64_t claimed = 0, calls = 0;
    double claim_s = 0, complete_s = 0;
    for (;;) {
      const auto t0 = Clock::now();
      const std::vector<queue::Claim> claims = store.claim("measure", batch, std::chrono::seconds(60), {zkey});
      claim_s += seconds_since(t0);
      ++calls;
      if (claims.empty()) break;
      claimed += claims.size();
      const auto t1 = Clock::now();
      for (const queue::Claim& c : claims) store.complete("measure", stand_in(c));
      complete_s += seconds_since(t1);
    }
    std::printf("%-28s %8u %10.0f %10.0f %12.2f\n", "", batch, static_cast<double>(claimed) / claim_s,
                static_cast<double>(claimed) / complete_s, 1000.0 * claim_s / static_cast<double>(calls));
  }
}

queue::PartitionResult stand_in(const queue::Claim& c) {
  queue::PartitionResult r;
  r.job_id = c.job_id;
  r.index = c.index;
  r.lease_id = c.lease_id;
  r.proof = std::string(256, '\1');  // a BN254 proof's size, and a small public.json
  r.proof_json = std::string(800, 'p');
  r.public_json = std::string(90, 'q');
  return r;
}

// Results written K to a statement (Store::complete_batch, the worker's --result-batch): N
// partitions claimed first, then only the writes are timed.
void measure_batched_results(queue::Store& store, const std::string& zkey, const std::string& wtns, uint32_t n) {
  std::printf("\n%-28s %8s %10s %12s\n", "results in batches", "K", "results/s", "ms/statement");
  for (uint32_t k : {1u, 4u, 16u, 64u}) {
    store.enqueue(job_of(zkey, wtns, n));
    std::vector<queue::PartitionResult> all;
    for (;;) {
      const std::vector<queue::Claim> claims = store.claim("measure", 50, std::chrono::seconds(60), {zkey});
      if (claims.empty()) break;
      for (const queue::Claim& c : claims) all.push_back(stand_in(c));
    }
    uint64_t statements = 0;
    const auto t0 = Clock::now();
    for (size_t i = 0; i < all.size(); i += k) {
      const std::vector<queue::PartitionResult> chunk(all.begin() + static_cast<std::ptrdiff_t>(i),
                                                      all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), i + k)));
      for (bool written : store.complete_batch("measure", chunk)) {
        if (!written) throw std::runtime_error("a stand-in result was dropped");
      }
      ++statements;
    }
    const double s = seconds_since(t0);
    std::printf("%-28s %8u %10.0f %12.2f\n", "", k, static_cast<double>(all.size()) / s,
                1000.0 * s / static_cast<double>(statements));
  }
}

host::Config cpu_config() {
  const std::vector<std::string> overrides = {"prover=cpu"};
  return host::Config::load(std::nullopt, overrides);
}

double in_process(const std::string& zkey, const std::string& wtns, uint32_t n) {
  host::Host host(cpu_config());
  auto source = sdk::make_struct<zkp_key_source_t>();
  source.path = zkey.c_str();
  const uint64_t key = host.load_key(source);
  std::vector<zkp_partition_t> parts(n, sdk::make_struct<zkp_partition_t>());
  for (zkp_partition_t& p : parts) {
    p.witness = sdk::make_struct<zkp_witness_t>();
    p.witness.kind = ZKP_WITNESS_WTNS_FILE;
    p.witness.path = wtns.c_str();
  }
  auto job = sdk::make_struct<zkp_job_t>();
  job.key_id = key;
  job.partitions = parts.data();
  job.partition_count = n;
  job.gpu_index = -1;
  const auto t0 = Clock::now();  // the key is loaded first: the worker loads it once too
  host.wait(host.submit(job), -1);
  const double s = seconds_since(t0);
  host.shutdown(ZKP_SHUTDOWN_DRAIN);
  return s;
}

double through_queue(const std::string& url, queue::Store& store, const std::string& zkey, const std::string& wtns,
                     uint32_t n, uint32_t slots, uint32_t result_batch) {
  // Warm the worker's key first, as in_process() does, with a one-partition job.
  host::Host host(cpu_config());
  queue::WorkerOptions options;
  options.url = url;
  options.id = "measure-worker";
  options.poll = std::chrono::milliseconds(100);
  options.slots = slots;
  options.result_batch = result_batch;
  queue::QueueWorker worker(host, options);
  std::thread loop([&] { worker.run(); });
  store.wait_done(store.enqueue(job_of(zkey, wtns, 1)), std::chrono::seconds(60));
  const auto t0 = Clock::now();
  const uint64_t id = store.enqueue(job_of(zkey, wtns, n));
  const std::optional<queue::JobStatus> s = store.wait_done(id, std::chrono::seconds(600));
  const double wall = seconds_since(t0);
  worker.stop();
  loop.join();
  if (!s || s->succeeded != n) throw std::runtime_error("the queued job did not complete");
  return wall;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s URL ZKEY WTNS [N [SLOTS...]]\n", argv[0]);
    return 2;
  }
  const std::string url = argv[1], zkey = argv[2], wtns = argv[3];
  const uint32_t n = argc > 4 ? static_cast<uint32_t>(std::stoul(argv[4])) : 200;
  try {
    {
      queue::Connection c(url);
      queue::migrate(c);
    }
    queue::Store store(url);
    if (const char* sizes = std::getenv("ZKPIPE_MEASURE_BACKLOG")) {
      measure_backlog(store, zkey, wtns, sizes);
      return 0;
    }
    measure_store(store, zkey, wtns, n * 5);
    measure_batched_results(store, zkey, wtns, n * 5);
    if (std::getenv("ZKPIPE_MEASURE_STORE_ONLY") != nullptr) return 0;
    const double local = in_process(zkey, wtns, n);
    std::printf("\n%-28s %10s %14s %16s\n", "end to end (cpu prover)", "wall s", "ms/partition", "overhead ms/part");
    std::printf("%-28s %10.2f %14.2f %16s\n", "in-process host", local, 1000.0 * local / n, "-");
    // SLOTS... (0: the worker's default) after N: one queued run each.
    std::vector<uint32_t> slot_counts;
    for (int i = 5; i < argc; ++i) slot_counts.push_back(static_cast<uint32_t>(std::stoul(argv[i])));
    if (slot_counts.empty()) slot_counts.push_back(0);
    // Each with results written one by one (--result-batch 1) and in batches (the default).
    for (uint32_t slots : slot_counts) {
      for (uint32_t batch : {1u, queue::WorkerOptions{}.result_batch}) {
        const double queued = through_queue(url, store, zkey, wtns, n, slots, batch);
        const std::string name = "via queue, slots " + (slots ? std::to_string(slots) : std::string("auto")) +
                                 ", batch " + std::to_string(batch);
        std::printf("%-28s %10.2f %14.2f %16.2f\n", name.c_str(), queued, 1000.0 * queued / n,
                    1000.0 * (queued - local) / n);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zkpipe_fleet_measure: %s\n", e.what());
    return 1;
  }
  return 0;
}
