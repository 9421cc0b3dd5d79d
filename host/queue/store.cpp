#include "store.hpp"

#include "schema.hpp"

#include <algorithm>
#include <thread>

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
  if (job.max_attempts < 0) throw Error("max_attempts must be at least 1 (0: the store's default)");
  Transaction tx(c_);
  // max_attempts 0: the store's setting (zkpipe.settings), read in the same transaction.
  const Result row =
      c_.exec("INSERT INTO zkpipe.jobs (key_path, key_format, priority, partition_count, gpu_index, curve, max_attempts)"
              " VALUES ($1, $2, $3, $4, $5, $6,"
              "  coalesce($7, (SELECT value FROM zkpipe.settings WHERE name = 'max_attempts'), 5))"
              " RETURNING id, max_attempts",
              {Param::text(job.key_path), Param::text(job.key_format), Param::integer(job.priority),
               Param::integer(static_cast<int64_t>(job.partitions.size())), gpu, curve,
               job.max_attempts > 0 ? Param::integer(job.max_attempts) : Param::null()});
  const uint64_t id = static_cast<uint64_t>(row.integer(0, 0));
  const std::vector<Param> common = {Param::integer(static_cast<int64_t>(id)), Param::integer(job.priority),
                                     Param::text(job.key_path), Param::text(job.key_format), gpu, curve,
                                     Param::integer(row.integer(0, 1))};
  // Partitions by path in one statement (arrays unnested); those carrying bytes one by one.
  std::vector<uint64_t> path_idx;
  std::vector<std::string> paths;
  for (size_t i = 0; i < job.partitions.size(); ++i) {
    const PartitionInput& p = job.partitions[i];
    if (!p.witness_bytes.empty()) {
      std::vector<Param> params = common;
      params.push_back(Param::integer(static_cast<int64_t>(i)));
      params.push_back(Param::bytes(p.witness_bytes));
      c_.exec("INSERT INTO zkpipe.partitions (job_id, priority, key_path, key_format, gpu_index, curve, max_attempts, idx,"
              " witness_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
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
    c_.exec("INSERT INTO zkpipe.partitions (job_id, priority, key_path, key_format, gpu_index, curve, max_attempts, idx,"
            " witness_path) SELECT $1, $2, $3, $4, $5, $6, $7, t.i, t.p FROM unnest($8::int[], $9::text[]) AS t(i, p)",
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
  // was picked (each a lost attempt), open the new leases, mark the partitions. A partition
  // whose lost attempts would reach its cap is not picked: give_up() fails it instead. Nor is
  // one whose expired lease is the caller's own: a worker stopped past its lease (SIGSTOP, a
  // stall) still proves it, and its heartbeat renews it. A reclaimed partition's row is
  // updated here, so a concurrent claimer that read it before this commit re-checks its WHERE
  // against the new row (READ COMMITTED's re-check of locked rows) and passes it by.
  //
  // The order is priority, then the caller's warm keys, then age. No index has the middle
  // term, so the candidates come from two index scans of at most `max` rows each: the first
  // `max` claimable rows by (priority, job, idx) (partitions_claimable), and per warm key its
  // first `max` (partitions_claimable_by_key). The claim's `max` rows are among them (a
  // non-warm row of the claim has only claimed rows before it in the first order; a warm one
  // only claimed warm rows before it in the second), so sorting those at most (1 + keys) x max
  // rows gives the same claim as sorting the backlog, at a cost that does not grow with it.
  constexpr const char* kClaimable =
      "state IN ('queued', 'leased')"
      " AND ((state = 'queued' AND lost_attempts < max_attempts)"
      "      OR (state = 'leased' AND lease_expires < now() AND lost_attempts + 1 < max_attempts"
      "          AND lease_worker <> $1))"
      " AND (returned_until IS NULL OR returned_until < now() OR returned_by <> $1)"
      " AND (gpu_index IS NULL OR gpu_index < $5) AND (curve IS NULL OR curve = ANY($6::text[]))";
  constexpr const char* kCandidate = "SELECT job_id, idx, priority, key_path, lease_id AS old_lease FROM zkpipe.partitions";
  constexpr const char* kIndexOrder = " ORDER BY priority DESC, job_id, idx LIMIT $2 FOR UPDATE SKIP LOCKED";
  const std::string sql = std::string("WITH first_rows AS (") + kCandidate + " WHERE " + kClaimable + kIndexOrder +
      "),"
      " warm_rows AS ("
      "  SELECT w.* FROM unnest($3::text[]) AS k(path) CROSS JOIN LATERAL (" +
      kCandidate + " WHERE key_path = k.path AND " + kClaimable + kIndexOrder +
      ") w),"
      " picked AS ("
      "  SELECT job_id, idx, old_lease FROM (SELECT * FROM first_rows UNION SELECT * FROM warm_rows) c"
      "  ORDER BY priority DESC, (key_path = ANY($3::text[])) DESC, job_id, idx LIMIT $2),"
      " expired AS ("
      "  UPDATE zkpipe.leases l SET ended_at = now(), outcome = 'expired'"
      "  FROM picked WHERE l.id = picked.old_lease AND l.ended_at IS NULL),"
      " fresh AS ("
      "  INSERT INTO zkpipe.leases (job_id, idx, worker, expires_at)"
      "  SELECT job_id, idx, $1, now() + $4 * interval '1 millisecond' FROM picked"
      "  RETURNING id, job_id, idx, expires_at)"
      " UPDATE zkpipe.partitions p SET state = 'leased', lease_id = f.id, lease_worker = $1,"
      "  lease_expires = f.expires_at, attempts = p.attempts + 1,"
      "  lost_attempts = p.lost_attempts + (k.old_lease IS NOT NULL)::int"
      " FROM fresh f JOIN picked k ON k.job_id = f.job_id AND k.idx = f.idx"
      " WHERE p.job_id = f.job_id AND p.idx = f.idx"
      " RETURNING p.job_id, p.idx, f.id, p.key_path, p.key_format, p.witness_path, p.witness_bytes, p.priority,"
      "  p.attempts, coalesce(p.gpu_index, -1)";
  const Result r = c_.exec(sql,
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
  // A lease past its expiry that nobody reclaimed yet is still the worker's: renewed too. The
  // rows are locked in (job, idx) order, as complete_many() locks them: a renew of a lease whose
  // result is being written in a batch cannot deadlock with that batch.
  const Result r = c_.exec(
      "WITH mine AS ("
      "  SELECT job_id, idx FROM zkpipe.partitions"
      "  WHERE state = 'leased' AND lease_worker = $1 AND lease_id = ANY($2::bigint[])"
      "  ORDER BY job_id, idx FOR UPDATE),"
      " held AS ("
      "  UPDATE zkpipe.partitions p SET lease_expires = now() + $3 * interval '1 millisecond'"
      "  FROM mine WHERE p.job_id = mine.job_id AND p.idx = mine.idx"
      "  RETURNING p.lease_id, p.lease_expires)"
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
          "  ORDER BY job_id, idx FOR UPDATE),"
          " q AS ("
          "  UPDATE zkpipe.partitions p SET state = 'queued', lease_id = NULL, lease_worker = NULL, lease_expires = NULL,"
          "   lost_attempts = p.lost_attempts + ($3 = 'abandoned')::int"
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

uint64_t Store::abandon_all(const std::string& worker) {
  const uint64_t n = requeue(c_, worker, Param::null(), "abandoned");
  // The previous life may have died of one of them: those at their cap fail now.
  if (n > 0) give_up();
  return n;
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
  const auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  };
  std::chrono::milliseconds backoff(100);
  bool listening = false;
  for (;;) {
    try {
      if (!listening) {
        c_.exec(std::string("LISTEN ") + kJobDoneChannel);
        listening = true;
        backoff = std::chrono::milliseconds(100);
      }
      std::optional<JobStatus> s = job(id);
      if (!s || s->state == "done" || left().count() <= 0) return s;
      // Any job's NOTIFY wakes us; the re-read says whether it was ours. The 1 s cap bounds
      // the wait should a notification be lost with a dropped connection.
      (void)c_.wait_notification(std::min(left(), std::chrono::milliseconds(1000)));
    } catch (const RefusedError&) {
      throw;  // the server is back but turns us away: no retry helps
    } catch (const Error& e) {
      if (!connection_lost(c_, e) || left().count() <= 0) throw;
      // The database went away while the job goes on in the fleet: connect again (a LISTEN does
      // not survive it), backing off to 2 s, until the deadline.
      std::this_thread::sleep_for(std::min(backoff, std::max(left(), std::chrono::milliseconds(0))));
      backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
      listening = false;
      try {
        c_.reset();
      } catch (const RefusedError&) {
        throw;
      } catch (const Error& again) {
        if (left().count() <= 0) {
          throw UnavailableError(std::string("the queue database stayed unreachable until --wait ran out: ") + again.what());
        }
      }
    }
  }
}

}  // namespace zkp::queue
