#include "schema.hpp"

#include <string>

namespace zkp::queue {

namespace {

struct Migration {
  int version;
  const char* description;
  const char* sql;
};

// Append only: a released migration is never edited (a database that ran it keeps it);
// change the schema with a new entry.
constexpr Migration kMigrations[] = {
    {1, "jobs, partitions, leases, results, dropped results, complete()", R"sql(
CREATE TABLE zkpipe.jobs (
  id              bigserial PRIMARY KEY,
  key_path        text NOT NULL,
  key_format      text NOT NULL DEFAULT 'zkey' CHECK (key_format IN ('zkey', 'bellperson')),
  priority        integer NOT NULL DEFAULT 0,
  state           text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'done')),
  partition_count integer NOT NULL CHECK (partition_count > 0),
  succeeded       integer NOT NULL DEFAULT 0,
  failed          integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
CREATE TABLE zkpipe.partitions (
  job_id        bigint NOT NULL REFERENCES zkpipe.jobs (id) ON DELETE CASCADE,
  idx           integer NOT NULL,
  priority      integer NOT NULL,
  key_path      text NOT NULL,
  key_format    text NOT NULL,
  witness_path  text,
  witness_bytes bytea,
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'leased', 'done', 'failed')),
  attempts      integer NOT NULL DEFAULT 0,
  lease_id      bigint,
  lease_worker  text,
  lease_expires timestamptz,
  PRIMARY KEY (job_id, idx),
  CHECK ((witness_path IS NULL) <> (witness_bytes IS NULL)),
  CHECK ((state = 'leased') = (lease_id IS NOT NULL))
);
CREATE INDEX partitions_claimable ON zkpipe.partitions (priority DESC, job_id, idx)
  WHERE state IN ('queued', 'leased');
CREATE INDEX partitions_by_worker ON zkpipe.partitions (lease_worker) WHERE state = 'leased';
CREATE TABLE zkpipe.leases (
  id          bigserial PRIMARY KEY,
  job_id      bigint NOT NULL,
  idx         integer NOT NULL,
  worker      text NOT NULL,
  acquired_at timestamptz NOT NULL DEFAULT now(),
  renewed_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  ended_at    timestamptz,
  outcome     text CHECK (outcome IN ('completed', 'released', 'expired', 'abandoned')),
  FOREIGN KEY (job_id, idx) REFERENCES zkpipe.partitions (job_id, idx) ON DELETE CASCADE
);
CREATE INDEX leases_by_partition ON zkpipe.leases (job_id, idx);
CREATE TABLE zkpipe.results (
  job_id        bigint NOT NULL,
  idx           integer NOT NULL,
  lease_id      bigint NOT NULL,
  worker        text NOT NULL,
  status        integer NOT NULL,
  message       text NOT NULL DEFAULT '',
  proof         bytea,
  public_inputs bytea,
  proof_json    text,
  public_json   text,
  prove_ns      bigint NOT NULL DEFAULT 0,
  written_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, idx),
  FOREIGN KEY (job_id, idx) REFERENCES zkpipe.partitions (job_id, idx) ON DELETE CASCADE
);
CREATE TABLE zkpipe.dropped_results (
  job_id     bigint NOT NULL,
  idx        integer NOT NULL,
  lease_id   bigint NOT NULL,
  worker     text NOT NULL,
  status     integer NOT NULL,
  dropped_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (job_id, idx) REFERENCES zkpipe.partitions (job_id, idx) ON DELETE CASCADE
);
-- A partition's result, written once (Store::complete): one round trip, one transaction. The
-- partition's row lock orders two results for it; the second is dropped and counted. Returns
-- whether this one was written.
CREATE FUNCTION zkpipe.complete(p_job bigint, p_idx integer, p_lease bigint, p_worker text, p_status integer,
                                p_message text, p_proof bytea, p_public bytea, p_proof_json text,
                                p_public_json text, p_prove_ns bigint) RETURNS boolean
LANGUAGE plpgsql AS $fn$
DECLARE
  v_state   text;
  v_current bigint;
  v_job     text;
BEGIN
  SELECT state, lease_id INTO v_state, v_current FROM zkpipe.partitions
    WHERE job_id = p_job AND idx = p_idx FOR UPDATE;
  IF NOT FOUND THEN
    RETURN false;  -- the job was deleted: nothing to write, nothing to count
  END IF;
  IF v_state IN ('done', 'failed') THEN
    INSERT INTO zkpipe.dropped_results (job_id, idx, lease_id, worker, status)
      VALUES (p_job, p_idx, p_lease, p_worker, p_status);
    RETURN false;
  END IF;
  INSERT INTO zkpipe.results (job_id, idx, lease_id, worker, status, message, proof, public_inputs,
                              proof_json, public_json, prove_ns)
    VALUES (p_job, p_idx, p_lease, p_worker, p_status, p_message, p_proof, p_public, p_proof_json,
            p_public_json, p_prove_ns);
  UPDATE zkpipe.partitions SET state = CASE WHEN p_status = 0 THEN 'done' ELSE 'failed' END,
      lease_id = NULL, lease_worker = NULL, lease_expires = NULL
    WHERE job_id = p_job AND idx = p_idx;
  -- This lease completed; a reclaimer's lease on the same partition is over too.
  UPDATE zkpipe.leases SET ended_at = now(), outcome = CASE WHEN id = p_lease THEN 'completed' ELSE 'released' END
    WHERE id IN (p_lease, v_current) AND ended_at IS NULL;
  UPDATE zkpipe.jobs SET succeeded = succeeded + (p_status = 0)::int, failed = failed + (p_status <> 0)::int,
      state = CASE WHEN succeeded + failed + 1 >= partition_count THEN 'done' ELSE state END,
      finished_at = CASE WHEN succeeded + failed + 1 >= partition_count THEN now() ELSE finished_at END
    WHERE id = p_job RETURNING state INTO v_job;
  IF v_job = 'done' THEN
    PERFORM pg_notify('zkpipe_job_done', p_job::text);
  END IF;
  RETURN true;
END
$fn$;
)sql"},
    // NULL is "any": the rows of version 1 stay claimable by every worker. Copied into the
    // partitions like priority and key_path, so that a claim reads one table.
    {2, "gpu_index and curve constraints on jobs and partitions", R"sql(
ALTER TABLE zkpipe.jobs ADD COLUMN gpu_index integer CHECK (gpu_index >= 0),
  ADD COLUMN curve text CHECK (curve IN ('bn254', 'bls12_381'));
ALTER TABLE zkpipe.partitions ADD COLUMN gpu_index integer CHECK (gpu_index >= 0),
  ADD COLUMN curve text CHECK (curve IN ('bn254', 'bls12_381'));
)sql"},
    // The attempts cap. An attempt is lost when its lease ends without a result: it expired
    // (the worker died, hung, was cut off, or gave it up at its attempt deadline), it was
    // abandoned (the worker restarted under the same id), or it was returned (the host failed
    // it for a reason of its own, a device fault or a path it cannot read, after its own
    // retries on its other devices; the lease keeps the error, and the returning worker
    // leaves the partition to the others for a while). `attempts` keeps counting claims;
    // `lost_attempts` counts those, and a partition whose lost attempts reach its
    // max_attempts is failed (zkpipe.give_up) rather than claimed again. The default cap is
    // the store's setting, read at enqueue; rows of earlier versions get 5.
    {3, "max_attempts: a partition whose attempts are lost that often is failed, with its history", R"sql(
CREATE TABLE zkpipe.settings (
  name  text PRIMARY KEY,
  value integer NOT NULL
);
INSERT INTO zkpipe.settings (name, value) VALUES ('max_attempts', 5);
ALTER TABLE zkpipe.jobs ADD COLUMN max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts > 0);
ALTER TABLE zkpipe.partitions ADD COLUMN max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
  ADD COLUMN lost_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN returned_by text,
  ADD COLUMN returned_until timestamptz;
ALTER TABLE zkpipe.leases DROP CONSTRAINT leases_outcome_check,
  ADD CONSTRAINT leases_outcome_check CHECK (outcome IN ('completed', 'released', 'expired', 'abandoned', 'returned')),
  ADD COLUMN message text;
-- The partitions one lost attempt from their cap (give_up reads them).
CREATE INDEX partitions_near_cap ON zkpipe.partitions (job_id, idx)
  WHERE state IN ('queued', 'leased') AND lost_attempts + 1 >= max_attempts;
-- The attempts that ended without a result, in order, as one line each.
CREATE FUNCTION zkpipe.attempt_history(p_job bigint, p_idx integer) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT coalesce(string_agg(format('%s %s..%s %s%s', worker, to_char(acquired_at, 'HH24:MI:SS.MS'),
                                    coalesce(to_char(ended_at, 'HH24:MI:SS.MS'), '?'), coalesce(outcome, 'open'),
                                    coalesce(' (' || message || ')', '')),
                             '; ' ORDER BY id), '')
  FROM zkpipe.leases WHERE job_id = p_job AND idx = p_idx AND outcome IN ('expired', 'abandoned', 'returned')
$fn$;
-- Fails every partition whose lost attempts reached its cap: those requeued with the cap
-- reached (abandoned), and those whose lease expired on their last allowed attempt (that
-- lease is ended 'expired' and counted here). Rows another transaction holds are skipped,
-- for a later call. The result is written by zkpipe.complete, as the store's (worker
-- 'zkpipe'), with status 7 (ZKP_ERR_DEVICE) and the history in the message. Returns how many.
CREATE FUNCTION zkpipe.give_up() RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
  n integer := 0;
BEGIN
  -- The first two terms are partitions_near_cap's predicate: a scan of the few rows one lost
  -- attempt from their cap, not of the table, every heartbeat of every worker.
  FOR r IN SELECT job_id, idx, lease_id, state, lost_attempts, max_attempts FROM zkpipe.partitions
      WHERE state IN ('queued', 'leased') AND lost_attempts + 1 >= max_attempts
        AND ((state = 'queued' AND lost_attempts >= max_attempts) OR (state = 'leased' AND lease_expires < now()))
      -- In (job, idx) order, so that two of these lock the jobs' rows in the same order.
      ORDER BY job_id, idx
      FOR UPDATE SKIP LOCKED LOOP
    IF r.state = 'leased' THEN
      UPDATE zkpipe.leases SET ended_at = now(), outcome = 'expired' WHERE id = r.lease_id AND ended_at IS NULL;
      UPDATE zkpipe.partitions SET lost_attempts = lost_attempts + 1 WHERE job_id = r.job_id AND idx = r.idx;
    END IF;
    PERFORM zkpipe.complete(r.job_id, r.idx, coalesce(r.lease_id, 0), 'zkpipe', 7,
        format('given up after %s lost attempts (max_attempts %s), none of which wrote a result: %s',
               r.lost_attempts + (r.state = 'leased')::int, r.max_attempts, zkpipe.attempt_history(r.job_id, r.idx)),
        NULL, NULL, NULL, NULL, 0);
    n := n + 1;
  END LOOP;
  RETURN n;
END
$fn$;
-- Several results in one transaction (Store::complete_batch), each as zkpipe.complete writes
-- it, set-based: each job's row is updated once for the batch rather than once per result,
-- and so is each NOTIFY. The arrays are the results' columns, one element per result. Rows
-- are locked partitions first, then jobs, each in order, so that batches never deadlock with
-- each other or with complete(). Returns, per input row (its 1-based ordinal), whether it
-- was written; the others were dropped and counted.
CREATE FUNCTION zkpipe.complete_many(p_worker text, p_job bigint[], p_idx integer[], p_lease bigint[],
                                     p_status integer[], p_message text[], p_proof bytea[], p_public bytea[],
                                     p_proof_json text[], p_public_json text[], p_prove_ns bigint[])
RETURNS TABLE (n bigint, written boolean)
-- Planned once: a custom plan per call (the default for the first calls, and for good when
-- the arrays make generic plans look dearer) costs more than the batch's writes.
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_n       bigint[];   -- the ordinals of the rows whose partition exists
  v_fresh   boolean[];  -- per v_n: no result yet (written), or dropped
  v_current bigint[];   -- per v_n: the partition's live lease (a reclaimer's, maybe)
  v_leases  bigint[];
  v_done    bigint;
BEGIN
  SELECT array_agg(t.n ORDER BY t.n), array_agg(q.state NOT IN ('done', 'failed') ORDER BY t.n),
         array_agg(q.lease_id ORDER BY t.n)
    INTO v_n, v_fresh, v_current
    FROM unnest(p_job, p_idx) WITH ORDINALITY AS t(j, i, n)
    JOIN (SELECT job_id, idx, state, lease_id FROM zkpipe.partitions
          WHERE (job_id, idx) IN (SELECT * FROM unnest(p_job, p_idx))
          ORDER BY job_id, idx FOR UPDATE) q ON q.job_id = t.j AND q.idx = t.i;
  IF v_n IS NULL THEN
    RETURN;  -- every job was deleted
  END IF;
  PERFORM 1 FROM zkpipe.jobs
    WHERE id IN (SELECT p_job[f.n] FROM unnest(v_n, v_fresh) AS f(n, fresh) WHERE f.fresh) ORDER BY id FOR UPDATE;
  INSERT INTO zkpipe.dropped_results (job_id, idx, lease_id, worker, status)
    SELECT p_job[f.n], p_idx[f.n], p_lease[f.n], p_worker, p_status[f.n]
    FROM unnest(v_n, v_fresh) AS f(n, fresh) WHERE NOT f.fresh;
  INSERT INTO zkpipe.results (job_id, idx, lease_id, worker, status, message, proof, public_inputs, proof_json,
                              public_json, prove_ns)
    SELECT p_job[f.n], p_idx[f.n], p_lease[f.n], p_worker, p_status[f.n], p_message[f.n], p_proof[f.n],
           p_public[f.n], p_proof_json[f.n], p_public_json[f.n], p_prove_ns[f.n]
    FROM unnest(v_n, v_fresh) AS f(n, fresh) WHERE f.fresh;
  UPDATE zkpipe.partitions q SET state = CASE WHEN p_status[f.n] = 0 THEN 'done' ELSE 'failed' END,
      lease_id = NULL, lease_worker = NULL, lease_expires = NULL
    FROM unnest(v_n, v_fresh) AS f(n, fresh)
    WHERE f.fresh AND q.job_id = p_job[f.n] AND q.idx = p_idx[f.n];
  -- The written results' leases, and the reclaimers' on the same partitions (one array, so
  -- that the lookup is by the primary key).
  SELECT array_agg(x) INTO v_leases FROM (
    SELECT p_lease[f.n] FROM unnest(v_n, v_fresh) AS f(n, fresh) WHERE f.fresh
    UNION SELECT f.cur FROM unnest(v_n, v_fresh, v_current) AS f(n, fresh, cur) WHERE f.fresh AND f.cur IS NOT NULL) s(x);
  UPDATE zkpipe.leases l SET ended_at = now(), outcome = CASE WHEN l.id = ANY(p_lease) THEN 'completed' ELSE 'released' END
    WHERE l.id = ANY(v_leases) AND l.ended_at IS NULL;
  WITH counts AS (
    SELECT p_job[f.n] AS job_id, count(*) FILTER (WHERE p_status[f.n] = 0) AS ok,
           count(*) FILTER (WHERE p_status[f.n] <> 0) AS bad
    FROM unnest(v_n, v_fresh) AS f(n, fresh) WHERE f.fresh GROUP BY 1),
  done AS (
    UPDATE zkpipe.jobs j SET succeeded = j.succeeded + c.ok, failed = j.failed + c.bad,
        state = CASE WHEN j.succeeded + j.failed + c.ok + c.bad >= j.partition_count THEN 'done' ELSE j.state END,
        finished_at = CASE WHEN j.succeeded + j.failed + c.ok + c.bad >= j.partition_count THEN now() ELSE j.finished_at END
      FROM counts c WHERE j.id = c.job_id RETURNING j.id, j.state)
  SELECT count(pg_notify('zkpipe_job_done', d.id::text)) INTO v_done FROM done d WHERE d.state = 'done';
  RETURN QUERY SELECT f.n, f.fresh FROM unnest(v_n, v_fresh) AS f(n, fresh);
END
$fn$;
)sql"},
    // A claim's warm-key candidates (Store::claim): per key, its open partitions in claim order,
    // so that a claim reads O(batch) rows however long the backlog is (docs/FLEET.md measures it).
    {4, "partitions_claimable_by_key: claims read O(batch) rows, not the backlog", R"sql(
CREATE INDEX partitions_claimable_by_key ON zkpipe.partitions (key_path, priority DESC, job_id, idx)
  WHERE state IN ('queued', 'leased');
)sql"},
};

constexpr int kLatest = static_cast<int>(sizeof(kMigrations) / sizeof(kMigrations[0]));

int read_version(Connection& c) {
  const Result exists = c.exec("SELECT to_regclass('zkpipe.schema_version') IS NOT NULL");
  if (exists.text(0, 0) != "t") return 0;
  return static_cast<int>(c.exec("SELECT coalesce(max(version), 0) FROM zkpipe.schema_version").integer(0, 0));
}

}  // namespace

int latest_schema_version() { return kLatest; }

int schema_version(Connection& c) { return read_version(c); }

Migrated migrate(Connection& c) {
  Transaction tx(c);
  // One migrator at a time across the fleet; the lock ends with the transaction.
  c.exec("SELECT pg_advisory_xact_lock(hashtext('zkpipe.schema_version'))");
  c.exec(
      "CREATE SCHEMA IF NOT EXISTS zkpipe;"
      "CREATE TABLE IF NOT EXISTS zkpipe.schema_version ("
      "  version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
  Migrated m;
  m.from = read_version(c);
  if (m.from > kLatest) {
    throw SchemaError("the queue's schema is at version " + std::to_string(m.from) + ", newer than this zkpipe's " +
                      std::to_string(kLatest) + ": upgrade zkpipe");
  }
  for (const Migration& step : kMigrations) {
    if (step.version <= m.from) continue;
    c.exec(step.sql);
    c.exec("INSERT INTO zkpipe.schema_version (version, description) VALUES ($1, $2)",
           {Param::integer(step.version), Param::text(step.description)});
  }
  tx.commit();
  m.to = kLatest;
  return m;
}

void require_current_schema(Connection& c) {
  const int v = read_version(c);
  if (v == kLatest) return;
  if (v == 0) throw SchemaError("the queue database has no zkpipe schema: run `zkpipe queue init --queue URL`");
  if (v < kLatest) {
    throw SchemaError("the queue's schema is at version " + std::to_string(v) + ", this zkpipe needs " +
                std::to_string(kLatest) + ": run `zkpipe queue migrate --queue URL`");
  }
  throw SchemaError("the queue's schema is at version " + std::to_string(v) + ", newer than this zkpipe's " +
                    std::to_string(kLatest) + ": upgrade zkpipe");
}

}  // namespace zkp::queue
