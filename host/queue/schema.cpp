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
    throw Error("the queue's schema is at version " + std::to_string(m.from) + ", newer than this zkpipe's " +
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
