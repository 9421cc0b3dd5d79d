/*
 * zkpipe job queue C API: enqueue proofs into a fleet's PostgreSQL job store and wait for them,
 * without speaking SQL (docs/FLEET.md describes the store, its lease protocol and `zkpipe worker`).
 *
 * Link against libzkpipe_queue (built when libpq is found). It talks to the database only: the
 * proving is done by the `zkpipe worker`s that share the store, on any machine.
 *
 *   zkp_queue_connect → zkp_queue_enqueue → zkp_queue_wait (LISTEN/NOTIFY) → zkp_queue_result
 *
 * Threads: a zkp_queue_t is one database connection. Calls on one handle take turns (a call
 * waits for the one in progress, a zkp_queue_wait included); use one handle per thread to wait
 * on several jobs at once. Every fallible function returns a status and fills `err` (which may
 * be NULL) with a message naming what failed; no exception crosses this boundary.
 *
 * Statuses besides those listed per function:
 *   ZKP_ERR_INVALID_ARGUMENT  a NULL handle or pointer, or an inconsistent argument;
 *   ZKP_ERR_ABI_MISMATCH      a struct_size too small, or the database's schema is not the
 *                             version this library speaks (the message says to run
 *                             `zkpipe queue init` or `migrate`, or to upgrade zkpipe);
 *   ZKP_QUEUE_ERR_UNAVAILABLE the database cannot be reached, or the connection was lost and
 *                             cannot be made again: no server at the address, a timeout, a
 *                             server starting up, shutting down or full. Try again later.
 *                             A call that finds its connection broken (the server
 *                             restarted since the last call) connects again and runs
 *                             once more first; an enqueue checks the connection before it
 *                             writes.
 *   ZKP_QUEUE_ERR_REFUSED     the server answered and refused the connection: authentication
 *                             failed, no pg_hba.conf entry, an unknown role or database, a role
 *                             that may not log in. Trying again will not help.
 *   ZKP_ERR_DEVICE            the database refused a statement (the message is PostgreSQL's).
 * Nothing half-done is left by a failure: every call is one transaction.
 */
#ifndef ZKP_QUEUE_H
#define ZKP_QUEUE_H

#include "zkp_prover.h" /* zkp_key_format_t; it includes zkp_common.h */

#ifdef __cplusplus
extern "C" {
#endif

/* The job store's own statuses, beyond zkp_common.h's (which every plugin shares, so they are
 * kept out of its range). zkp_queue_status_name() names them, and zkp_common.h's. */
#define ZKP_QUEUE_ERR_UNAVAILABLE 256 /* the database cannot be reached now */
#define ZKP_QUEUE_ERR_REFUSED 257     /* the database refused the connection (credentials, role, name) */

static inline const char *zkp_queue_status_name(zkp_status_t s) {
  switch (s) {
    case ZKP_QUEUE_ERR_UNAVAILABLE: return "database unavailable";
    case ZKP_QUEUE_ERR_REFUSED: return "database refused the connection";
    default: return zkp_status_name(s);
  }
}

typedef struct zkp_queue_t zkp_queue_t; /* opaque: one connection to the job store */

/* One partition: a witness by path (on storage every worker sees at that path; made absolute
 * by the caller's working directory) or by bytes (stored in the row: for small witnesses).
 * Exactly one of witness_path and witness_bytes is set. */
typedef struct zkp_queue_partition_t {
  zkp_struct_header_t header;
  const char *witness_path;     /* a snarkjs .wtns file, or NULL */
  const uint8_t *witness_bytes; /* .wtns bytes (witness_size of them), or NULL */
  size_t witness_size;
} zkp_queue_partition_t;

/* A job: one key, its partitions, and where it may run. Everything is owned by the caller and
 * read during zkp_queue_enqueue only. */
typedef struct zkp_queue_job_t {
  zkp_struct_header_t header;
  const char *key_path;      /* the proving key, on storage every worker sees */
  zkp_key_format_t key_format; /* ZKP_KEY_FORMAT_ZKEY (0) or ZKP_KEY_FORMAT_BELLPERSON */
  int32_t priority;          /* higher is claimed first across the fleet; FIFO among equals */
  int32_t gpu_index;         /* -1: any device; else only a worker whose host has that device
                                index claims the partitions, and proves them there */
  zkp_curve_t curve;         /* ZKP_CURVE_UNKNOWN (0): any worker; else only workers that
                                declare the curve (`zkpipe worker --curves`) claim them */
  const zkp_queue_partition_t *partitions;
  uint32_t partition_count;  /* at least 1 */
  /* Added with the attempts cap (store schema 3): how many attempts at a partition may be lost
   * (its worker died, hung, restarted, or gave it back for a failure of its own host) before
   * the partition fails with their history; 0: the store's default (`zkpipe queue config`).
   * 64 bits so that struct_size tells an older caller's struct, which ends at partition_count
   * (and its padding), from this one: an older caller gets the default. */
  int64_t max_attempts;
} zkp_queue_job_t;

/* A job as the store sees it. */
typedef struct zkp_queue_job_status_t {
  zkp_struct_header_t header;
  uint64_t job_id;
  uint32_t done;        /* 1 once every partition has its result (succeeded or failed) */
  uint32_t partitions;
  uint32_t succeeded;
  uint32_t failed;
  uint32_t leased;      /* partitions held by a worker right now */
  int32_t priority;
  uint64_t dropped;     /* late second results, dropped (a worker that lost its lease) */
} zkp_queue_job_status_t;

/* One partition's result. The pointers are owned by the handle and valid until the next call
 * on it (copy what you keep). */
typedef struct zkp_queue_result_t {
  zkp_struct_header_t header;
  uint32_t written;              /* 0: no result yet (the other fields are empty) */
  zkp_status_t status;           /* ZKP_OK, or why the partition failed (not retried) */
  const char *message;           /* "" on success */
  const char *worker;            /* the worker that wrote it */
  const uint8_t *proof;          /* zkp_prover.h's proof bytes; NULL for a failure */
  size_t proof_size;
  const uint8_t *public_inputs;  /* the key's n_public scalars; NULL for a failure */
  size_t public_size;
  const char *proof_json;        /* snarkjs's proof.json text; "" for a failure */
  const char *public_json;       /* snarkjs's public.json text; "" for a failure */
  uint64_t prove_ns;             /* the worker's host time, submit to completion */
} zkp_queue_result_t;

/* Connects to the store at `url`, a libpq URI ("postgresql://user@host:port/db", or with
 * "?host=/socket/dir") or key=value string, and checks its schema version. *out is owned by
 * the caller until zkp_queue_disconnect(). */
ZKP_EXPORT zkp_status_t zkp_queue_connect(const char *url, zkp_queue_t **out, zkp_error_t *err);

/* Closes the connection and frees the handle (not while a call on it is running). NULL is a
 * no-op. */
ZKP_EXPORT void zkp_queue_disconnect(zkp_queue_t *queue);

/* Enqueues a job (one transaction: all of its partitions or none) and wakes idle workers.
 * *job_id: the store's id, never 0. ZKP_ERR_NOT_FOUND when the key or a witness path is no
 * file here (paths are checked and made absolute on the caller's machine). */
ZKP_EXPORT zkp_status_t zkp_queue_enqueue(zkp_queue_t *queue, const zkp_queue_job_t *job,
                                          uint64_t *job_id, zkp_error_t *err);

/* The job's status into *out (caller-owned; its header is kept). ZKP_ERR_NOT_FOUND for an
 * unknown job. */
ZKP_EXPORT zkp_status_t zkp_queue_job_status(zkp_queue_t *queue, uint64_t job_id,
                                             zkp_queue_job_status_t *out, zkp_error_t *err);

/* Waits until the job is done (LISTEN for the store's completion NOTIFY, with a re-read of
 * the job's row at least every second, so a notification lost with a connection costs a
 * second, not the job) or timeout_ms passes (-1: forever). ZKP_OK when done, ZKP_ERR_TIMEOUT
 * when not yet (nothing is lost: wait again), ZKP_ERR_NOT_FOUND for an unknown job. `out`
 * (may be NULL) gets the last status read, in either case. A job that is done may have
 * failed partitions: look at out->failed. */
ZKP_EXPORT zkp_status_t zkp_queue_wait(zkp_queue_t *queue, uint64_t job_id, int64_t timeout_ms,
                                       zkp_queue_job_status_t *out, zkp_error_t *err);

/* The result of partition `partition` (0-based, in the order enqueued) of a job into *out.
 * ZKP_ERR_NOT_FOUND for an unknown job or partition; a partition not finished yet is ZKP_OK
 * with out->written = 0. */
ZKP_EXPORT zkp_status_t zkp_queue_result(zkp_queue_t *queue, uint64_t job_id, uint32_t partition,
                                         zkp_queue_result_t *out, zkp_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* ZKP_QUEUE_H */
