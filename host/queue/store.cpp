#include "store.hpp"

#include "schema.hpp"

#include <algorithm>

namespace zkp::queue {

namespace {

Param millis(std::chrono::milliseconds d) { return Param::integer(d.count()); }

// created_at / finished_at as the jobs table prints them.
constexpr const char* kJobColumns =
    "j.id, j.state, j.key_path, j.priority, j.partition_count, j.succeeded, j.failed,"
    " (SELECT count(*) FROM zkpipe.partitions p WHERE p.job_id = j.id AND p.state = 'leased'),"
    " (SELECT count(*) FROM zkpipe.dropped_results d WHERE d.job_id = j.id),"
    " to_char(j.created_at, 'YYYY-MM-DD HH24:MI:SS'), coalesce(to_char(j.finished_at, 'YYYY-MM-DD HH24:MI:SS'), '')";

JobStatus job_row(const Result& r, int row) {
  JobStatus s;
  s.id = static_cast<uint64_t>(r.integer(row, 0));
  s.state = r.text(row, 1);
  s.key_path = r.text(row, 2);
  s.priority = static_cast<int32_t>(r.integer(row, 3));
  s.partitions = static_cast<uint32_t>(r.integer(row, 4));
  s.succeeded = static_cast<uint32_t>(r.integer(row, 5));
  s.failed = static_cast<uint32_t>(r.integer(row, 6));
  s.leased = static_cast<uint32_t>(r.integer(row, 7));
  s.dropped = static_cast<uint64_t>(r.integer(row, 8));
  s.created_at = r.text(row, 9);
  s.finished_at = r.text(row, 10);
  return s;
}

}  // namespace

Store::Store(const std::string& url) : c_(url) { require_current_schema(c_); }

uint64_t Store::enqueue(const JobSpec& job) {
  if (job.partitions.empty()) throw Error("a job needs at least one partition");
  // The constraints are copied into every partition too, so that a claim reads one table.
  const Param gpu = job.gpu_index < 0 ? Param::null() : Param::integer(job.gpu_index);
  const Param curve = job.curve.empty() ? Param::null() : Param::text(job.curve);
  Transaction tx(c_);
  const uint64_t id = static_cast<uint64_t>(
      c_.exec("INSERT INTO zkpipe.jobs (key_path, key_format, priority, partition_count, gpu_index, curve)"
              " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
              {Param::text(job.key_path), Param::text(job.key_format), Param::integer(job.priority),
               Param::integer(static_cast<int64_t>(job.partitions.size())), gpu, curve})
          .integer(0, 0));
  const std::vector<Param> common = {Param::integer(static_cast<int64_t>(id)), Param::integer(job.priority),
                                     Param::text(job.key_path), Param::text(job.key_format), gpu, curve};
  // Partitions by path in one statement (arrays unnested); those carrying bytes one by one.
  std::vector<uint64_t> path_idx;
  std::vector<std::string> paths;
  for (size_t i = 0; i < job.partitions.size(); ++i) {
    const PartitionInput& p = job.partitions[i];
    if (!p.witness_bytes.empty()) {
      std::vector<Param> params = common;
      params.push_back(Param::integer(static_cast<int64_t>(i)));
      params.push_back(Param::bytes(p.witness_bytes));
      c_.exec("INSERT INTO zkpipe.partitions (job_id, priority, key_path, key_format, gpu_index, curve, idx, witness_bytes)"
              " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
              params);
    } else {
      path_idx.push_back(i);
      paths.push_back(p.witness_path);
    }
  }
  if (!paths.empty()) {
    std::vector<Param> params = common;
    params.push_back(Param::text(int_array(path_idx)));
    params.push_back(Param::text(text_array(paths)));
    c_.exec("INSERT INTO zkpipe.partitions (job_id, priority, key_path, key_format, gpu_index, curve, idx, witness_path)"
            " SELECT $1, $2, $3, $4, $5, $6, t.i, t.p FROM unnest($7::int[], $8::text[]) AS t(i, p)",
            params);
  }
  c_.exec("SELECT pg_notify($1, $2)", {Param::text(kWorkChannel), Param::text(std::to_string(id))});
  tx.commit();
  return id;
}

std::vector<Claim> Store::claim(const std::string& worker, uint32_t max, std::chrono::milliseconds lease,
                                const std::vector<std::string>& warm_keys, const Capabilities& caps) {
  if (max == 0) return {};
  // One statement: pick (skipping rows another claimer holds), end the expired leases of what
  // was picked, open the new leases, mark the partitions. A reclaimed partition's row is
  // updated here, so a concurrent claimer that read it before this commit re-checks its
  // WHERE against the new row (READ COMMITTED's re-check of locked rows) and passes it by.
  const Result r = c_.exec(
      "WITH picked AS ("
      "  SELECT job_id, idx, lease_id AS old_lease FROM zkpipe.partitions"
      "  WHERE (state = 'queued' OR (state = 'leased' AND lease_expires < now()))"
      "   AND (gpu_index IS NULL OR gpu_index < $5) AND (curve IS NULL OR curve = ANY($6::text[]))"
      "  ORDER BY priority DESC, (key_path = ANY($3::text[])) DESC, job_id, idx"
      "  LIMIT $2 FOR UPDATE SKIP LOCKED),"
      " expired AS ("
      "  UPDATE zkpipe.leases l SET ended_at = now(), outcome = 'expired'"
      "  FROM picked WHERE l.id = picked.old_lease AND l.ended_at IS NULL),"
      " fresh AS ("
      "  INSERT INTO zkpipe.leases (job_id, idx, worker, expires_at)"
      "  SELECT job_id, idx, $1, now() + $4 * interval '1 millisecond' FROM picked"
      "  RETURNING id, job_id, idx, expires_at)"
      " UPDATE zkpipe.partitions p SET state = 'leased', lease_id = f.id, lease_worker = $1,"
      "  lease_expires = f.expires_at, attempts = p.attempts + 1"
      " FROM fresh f WHERE p.job_id = f.job_id AND p.idx = f.idx"
      " RETURNING p.job_id, p.idx, f.id, p.key_path, p.key_format, p.witness_path, p.witness_bytes, p.priority,"
      "  p.attempts, coalesce(p.gpu_index, -1)",
      {Param::text(worker), Param::integer(max), Param::text(text_array(warm_keys)), millis(lease),
       Param::integer(caps.device_count), Param::text(text_array(caps.curves))});
  std::vector<Claim> out(static_cast<size_t>(r.rows()));
  for (int i = 0; i < r.rows(); ++i) {
    Claim& c = out[static_cast<size_t>(i)];
    c.job_id = static_cast<uint64_t>(r.integer(i, 0));
    c.index = static_cast<uint32_t>(r.integer(i, 1));
    c.lease_id = static_cast<uint64_t>(r.integer(i, 2));
    c.key_path = r.text(i, 3);
    c.key_format = r.text(i, 4);
    c.witness_path = r.text(i, 5);
    c.witness_bytes = r.bytea(i, 6);
    c.priority = static_cast<int32_t>(r.integer(i, 7));
    c.attempt = static_cast<uint32_t>(r.integer(i, 8));
    c.gpu_index = static_cast<int32_t>(r.integer(i, 9));
  }
  // RETURNING's order is the update's, not the pick's: hand them out in priority order.
  std::stable_sort(out.begin(), out.end(), [](const Claim& a, const Claim& b) { return a.priority > b.priority; });
  return out;
}

std::vector<uint64_t> Store::renew(const std::string& worker, const std::vector<uint64_t>& lease_ids,
                                   std::chrono::milliseconds lease) {
  if (lease_ids.empty()) return {};
  // A lease past its expiry that nobody reclaimed yet is still the worker's: renewed too.
  const Result r = c_.exec(
      "WITH held AS ("
      "  UPDATE zkpipe.partitions SET lease_expires = now() + $3 * interval '1 millisecond'"
      "  WHERE state = 'leased' AND lease_worker = $1 AND lease_id = ANY($2::bigint[])"
      "  RETURNING lease_id, lease_expires)"
      " UPDATE zkpipe.leases l SET renewed_at = now(), expires_at = h.lease_expires"
      " FROM held h WHERE l.id = h.lease_id RETURNING l.id",
      {Param::text(worker), Param::text(int_array(lease_ids)), millis(lease)});
  std::vector<uint64_t> held;
  for (int i = 0; i < r.rows(); ++i) held.push_back(static_cast<uint64_t>(r.integer(i, 0)));
  return held;
}

namespace {

// Requeues the worker's leases in `ids` (all of them when `ids` is NULL), ending them with
// `outcome`.
uint64_t requeue(Connection& c, const std::string& worker, const Param& ids, const char* outcome) {
  return c
      .exec(
          "WITH old AS ("
          "  SELECT job_id, idx, lease_id FROM zkpipe.partitions"
          "  WHERE state = 'leased' AND lease_worker = $1 AND ($2::bigint[] IS NULL OR lease_id = ANY($2::bigint[]))"
          "  FOR UPDATE),"
          " q AS ("
          "  UPDATE zkpipe.partitions p SET state = 'queued', lease_id = NULL, lease_worker = NULL, lease_expires = NULL"
          "  FROM old WHERE p.job_id = old.job_id AND p.idx = old.idx)"
          " UPDATE zkpipe.leases l SET ended_at = now(), outcome = $3 FROM old WHERE l.id = old.lease_id",
          {Param::text(worker), ids, Param::text(outcome)})
      .affected();
}

}  // namespace

uint64_t Store::release(const std::string& worker, const std::vector<uint64_t>& lease_ids) {
  if (lease_ids.empty()) return 0;
  const uint64_t n = requeue(c_, worker, Param::text(int_array(lease_ids)), "released");
  if (n > 0) c_.exec("SELECT pg_notify($1, 'released')", {Param::text(kWorkChannel)});
  return n;
}

uint64_t Store::abandon_all(const std::string& worker) { return requeue(c_, worker, Param::null(), "abandoned"); }

bool Store::complete(const std::string& worker, const PartitionResult& res) {
  // zkpipe.complete (schema.cpp) does the whole write in one round trip; kJobDoneChannel is
  // the channel it notifies.
  auto maybe = [](const std::string& s, bool binary) { return s.empty() ? Param::null() : Param{s, binary}; };
  const Result r = c_.exec(
      "SELECT zkpipe.complete($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
      {Param::integer(static_cast<int64_t>(res.job_id)), Param::integer(res.index),
       Param::integer(static_cast<int64_t>(res.lease_id)), Param::text(worker), Param::integer(res.status),
       Param::text(res.message), maybe(res.proof, true), maybe(res.public_inputs, true), maybe(res.proof_json, false),
       maybe(res.public_json, false), Param::integer(static_cast<int64_t>(res.prove_ns))});
  return r.text(0, 0) == "t";
}

std::vector<JobStatus> Store::jobs(uint32_t limit) {
  const Result r = c_.exec(std::string("SELECT ") + kJobColumns + " FROM zkpipe.jobs j ORDER BY j.id DESC LIMIT $1",
                           {Param::integer(limit)});
  std::vector<JobStatus> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(job_row(r, i));
  return out;
}

std::optional<JobStatus> Store::job(uint64_t id) {
  const Result r = c_.exec(std::string("SELECT ") + kJobColumns + " FROM zkpipe.jobs j WHERE j.id = $1",
                           {Param::integer(static_cast<int64_t>(id))});
  if (r.rows() == 0) return std::nullopt;
  return job_row(r, 0);
}

std::vector<PartitionStatus> Store::partitions(uint64_t job_id, bool with_proofs) {
  const Result r = c_.exec(
      std::string("SELECT p.idx, p.state, p.attempts, coalesce(r.worker, p.lease_worker, ''), r.status,"
                  " coalesce(r.message, '')") +
          (with_proofs ? ", r.proof_json, r.public_json" : "") +
          " FROM zkpipe.partitions p LEFT JOIN zkpipe.results r USING (job_id, idx) WHERE p.job_id = $1 ORDER BY p.idx",
      {Param::integer(static_cast<int64_t>(job_id))});
  std::vector<PartitionStatus> out;
  for (int i = 0; i < r.rows(); ++i) {
    PartitionStatus s;
    s.index = static_cast<uint32_t>(r.integer(i, 0));
    s.state = r.text(i, 1);
    s.attempts = static_cast<uint32_t>(r.integer(i, 2));
    s.worker = r.text(i, 3);
    if (!r.is_null(i, 4)) s.status = static_cast<int32_t>(r.integer(i, 4));
    s.message = r.text(i, 5);
    if (with_proofs) {
      s.proof_json = r.text(i, 6);
      s.public_json = r.text(i, 7);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<StoredResult> Store::result(uint64_t job_id, uint32_t index) {
  const Result r = c_.exec(
      "SELECT r.status IS NOT NULL, r.status, coalesce(r.worker, ''), coalesce(r.message, ''), r.proof, r.public_inputs,"
      " coalesce(r.proof_json, ''), coalesce(r.public_json, ''), r.prove_ns"
      " FROM zkpipe.partitions p LEFT JOIN zkpipe.results r USING (job_id, idx) WHERE p.job_id = $1 AND p.idx = $2",
      {Param::integer(static_cast<int64_t>(job_id)), Param::integer(index)});
  if (r.rows() == 0) return std::nullopt;
  StoredResult s;
  s.written = r.text(0, 0) == "t";
  if (!s.written) return s;
  s.status = static_cast<int32_t>(r.integer(0, 1));
  s.worker = r.text(0, 2);
  s.message = r.text(0, 3);
  s.proof = r.bytea(0, 4);
  s.public_inputs = r.bytea(0, 5);
  s.proof_json = r.text(0, 6);
  s.public_json = r.text(0, 7);
  s.prove_ns = static_cast<uint64_t>(r.integer(0, 8));
  return s;
}

std::optional<JobStatus> Store::wait_done(uint64_t id, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  c_.exec(std::string("LISTEN ") + kJobDoneChannel);
  for (;;) {
    std::optional<JobStatus> s = job(id);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (!s || s->state == "done" || left.count() <= 0) return s;
    // Any job's NOTIFY wakes us; the re-read says whether it was ours. The 1 s cap bounds
    // the wait should a notification be lost with a dropped connection.
    (void)c_.wait_notification(std::min(left, std::chrono::milliseconds(1000)));
  }
}

}  // namespace zkp::queue
