/*
 * zkpipe client C API: talk to a `zkpipe serve` (the gRPC service of zkpipe/v1/prover.proto)
 * from C, or from any language with a C FFI (the Rust crate zkpipe-client and the Go package
 * zkpipe/client wrap it), without a gRPC stack of your own.
 *
 * Link against libzkpipe_client (built when gRPC is found). It runs no host: the proving is
 * done by the server, on the server's machine (key paths are paths there).
 *
 *   zkp_client_connect → zkp_client_load_key → zkp_client_prove → zkp_client_result_* → zkp_client_close
 *
 * Threads: every function on a zkp_client_t is [any-thread]: one connection carries calls from
 * many threads at once (gRPC multiplexes them), a blocking zkp_client_await beside the others.
 * zkp_client_close must not overlap another call on the same handle. A zkp_client_result_t is
 * immutable and may be read from any thread; free it once.
 *
 * Every fallible function returns a status and fills `err` (which may be NULL) with a message
 * that names the call, the gRPC status and the server's words ("LoadKey: NOT_FOUND: /k.zkey:
 * no such file"); no exception crosses this boundary. Outputs are written only on success.
 * Statuses: those of zkp_common.h as the server reports them (it sends the host's
 * zkp_status_t with every failure: ZKP_ERR_NOT_FOUND for an unknown key or job,
 * ZKP_ERR_INVALID_ARGUMENT or ZKP_ERR_BAD_INPUT for a bad request or witness, ...), plus:
 *   ZKP_CLIENT_ERR_UNAVAILABLE      no server answers (nothing listens at the address, a TLS
 *                                   mismatch, a server shutting down, a lost connection). Try
 *                                   again later.
 *   ZKP_CLIENT_ERR_UNAUTHENTICATED  the server refused the call's bearer token (none, or a wrong
 *                                   one; TCP only: the unix socket needs none). Trying again
 *                                   with the same token will not help.
 *   ZKP_ERR_TIMEOUT                 a call ran past zkp_client_options_t.call_timeout_ms (the
 *                                   job it gave up on runs on: giving up cancels nothing).
 *   ZKP_ERR_INVALID_ARGUMENT        also: a NULL handle or pointer, or inconsistent options.
 *   ZKP_ERR_ABI_MISMATCH            a struct whose struct_size is smaller than this header's.
 */
#ifndef ZKP_CLIENT_H
#define ZKP_CLIENT_H

#include "zkp_prover.h" /* zkp_key_format_t; it includes zkp_common.h */

#ifdef __cplusplus
extern "C" {
#endif

/* The client's own statuses, in a range of their own (zkp_queue.h holds 256-511). */
#define ZKP_CLIENT_ERR_UNAVAILABLE 512     /* no zkpipe serve answers at the address */
#define ZKP_CLIENT_ERR_UNAUTHENTICATED 513 /* the server refused the bearer token */

/* zkp_status_name, knowing the client's statuses too. */
static inline const char *zkp_client_status_name(zkp_status_t s) {
  switch (s) {
    case ZKP_CLIENT_ERR_UNAVAILABLE: return "unavailable";
    case ZKP_CLIENT_ERR_UNAUTHENTICATED: return "unauthenticated";
    default: return zkp_status_name(s);
  }
}

/* A connection to one server. Owned by the caller, freed by zkp_client_close. */
typedef struct zkp_client_t zkp_client_t;

/* Where and how to connect. Strings owned by the caller, valid for zkp_client_connect only. */
typedef struct zkp_client_options_t {
  zkp_struct_header_t header; /* ZKP_HEADER_INIT(zkp_client_options_t) */
  /* "unix:PATH" (or an absolute PATH) or "HOST:PORT"; NULL or "": serve.socket's default
   * ($XDG_RUNTIME_DIR/zkpipe.sock, else /tmp/zkpipe-UID.sock). */
  const char *address;
  /* The bearer token every call carries (TCP servers require one), or NULL... */
  const char *token;
  /* ... or the file holding it (surrounding whitespace ignored), or NULL. Not both. */
  const char *token_file;
  /* A PEM file of trusted certificates (the CA, or a self-signed server certificate itself):
   * TLS on. NULL: plaintext. Not for a unix socket. */
  const char *tls_ca_file;
  /* The name the server's certificate must hold when not the address's host, or NULL. */
  const char *tls_server_name;
  /* How long zkp_client_connect waits for the server; 0: 10000 ms. */
  uint32_t connect_timeout_ms;
  /* Each call's deadline (a prove or an await included); 0: none. */
  uint32_t call_timeout_ms;
} zkp_client_options_t;

/* [any-thread] Connects and waits (at most connect_timeout_ms) until the server answers.
 * On success *out is a new handle. ZKP_CLIENT_ERR_UNAVAILABLE if nothing answers;
 * ZKP_ERR_NOT_FOUND / ZKP_ERR_INVALID_ARGUMENT for an unreadable or empty token file or CA
 * file (the message names the field). The token is not checked here: the first call is. */
ZKP_EXPORT zkp_status_t zkp_client_connect(const zkp_client_options_t *options, zkp_client_t **out, zkp_error_t *err);

/* [serialized] Closes the connection; NULL is a no-op. Results stay valid. */
ZKP_EXPORT void zkp_client_close(zkp_client_t *client);

/* A key loaded on the server (KeyInfo of prover.proto). */
typedef struct zkp_client_key_t {
  zkp_struct_header_t header; /* set by the caller: ZKP_HEADER_INIT(zkp_client_key_t) */
  uint64_t key_id;
  zkp_key_format_t format;
  zkp_curve_t curve;
  uint32_t n_vars;
  uint32_t n_public;
  uint32_t domain_size;
  uint32_t proof_size;
  uint64_t synthesis_bytes;
  uint64_t loaded_unix_ms;
  uint64_t load_ns;        /* how long the server's load took */
  uint64_t jobs_submitted;
  uint32_t already_loaded; /* zkp_client_load_key: 1 if it was warm (an earlier load's key) */
  uint32_t reserved;
  /* Added after reserved; written only when the caller's struct_size covers it. What the key
   * holds on each device it is loaded on (zkp_key_info_t.device_bytes); 0 without devices. */
  uint64_t device_bytes;
} zkp_client_key_t;

/* [any-thread] Loads the key file `path` (on the server's machine) on every device of the
 * server, or finds it loaded (the same file and format: the same key id, warm). */
ZKP_EXPORT zkp_status_t zkp_client_load_key(zkp_client_t *client, const char *path, zkp_key_format_t format,
                                            zkp_client_key_t *out, zkp_error_t *err);

/* [any-thread] zkp_client_load_key, with the circuit's witness generator: `witness_generator`
 * names a plugin file on the server's machine (zkpipe witness build's output) inside its
 * serve.generator_dirs (ZKP_ERR_INVALID_ARGUMENT otherwise: a generator is code the server
 * runs); NULL or "" is zkp_client_load_key. Jobs of the key may then be inputs
 * (ZKP_CLIENT_JOB_INPUTS). The same key file with another generator is another key. */
ZKP_EXPORT zkp_status_t zkp_client_load_key_with_generator(zkp_client_t *client, const char *path,
                                                           zkp_key_format_t format,
                                                           const char *witness_generator,
                                                           zkp_client_key_t *out, zkp_error_t *err);

/* [any-thread] Drops a key. ZKP_ERR_NOT_FOUND for an unknown id; refused (the server's status)
 * while partitions of it are in flight. */
ZKP_EXPORT zkp_status_t zkp_client_unload_key(zkp_client_t *client, uint64_t key_id, zkp_error_t *err);

/* [any-thread] The loaded keys, into keys[0..capacity) (each header set by the caller); *count
 * is how many there are. ZKP_ERR_SHORT_BUFFER when capacity < *count (nothing written but
 * *count); keys may be NULL with capacity 0 to ask the count. The array's stride is
 * keys[0].header.struct_size, so a caller built against an earlier, shorter zkp_client_key_t
 * is served as it was. */
ZKP_EXPORT zkp_status_t zkp_client_list_keys(zkp_client_t *client, zkp_client_key_t *keys, size_t capacity,
                                             size_t *count, zkp_error_t *err);

/* A job: one snarkjs .wtns per partition, as bytes. Owned by the caller, read during the call. */
typedef struct zkp_client_job_t {
  zkp_struct_header_t header; /* ZKP_HEADER_INIT(zkp_client_job_t) */
  uint64_t key_id;
  const uint8_t *const *witnesses; /* witness_count buffers ... */
  const size_t *witness_sizes;     /* ... of these sizes */
  size_t witness_count;            /* at least 1 */
  int32_t gpu_index;               /* -1: any device */
  int32_t priority;                /* higher first; FIFO among equals */
  /* Added after priority; read only when struct_size covers it. ZKP_CLIENT_JOB_* */
  uint32_t flags;
} zkp_client_job_t;

/* zkp_client_job_t.flags */
#define ZKP_CLIENT_JOB_INPUTS 1u /* the witnesses are the circuit's input.json texts, which the
                                    key's witness generator turns into witnesses (a key loaded
                                    with zkp_client_load_key_with_generator) */

/* One finished partition: every field of zkp_completion_t, and the proof in bytes and as
 * snarkjs JSON. Pointers owned by the result it came from, valid until zkp_client_result_free. */
typedef struct zkp_client_partition_t {
  zkp_struct_header_t header; /* written by the library: its layout's size (a reader checks it) */
  uint32_t partition;
  zkp_status_t status;  /* ZKP_OK, or why this partition failed (message says more) */
  const char *message;  /* "" on success */
  int32_t gpu_index;    /* -1 if it never reached a device */
  uint32_t worker;
  uint64_t gpu_duration_ns;
  uint64_t synthesis_ns;
  uint64_t queue_wait_ns;
  uint64_t total_ns;
  zkp_curve_t curve;
  uint32_t flags;                /* ZKP_COMPLETION_* of zkp_host.h */
  const uint8_t *proof;          /* zkp_prover.h's proof bytes; NULL, 0 on failure */
  size_t proof_size;
  const uint8_t *public_inputs;  /* 32-byte scalars; NULL, 0 on failure */
  size_t public_inputs_size;
  const char *proof_json;        /* proof.json as snarkjs writes it; "" on failure */
  const char *public_json;       /* public.json as snarkjs writes it; "" on failure */
} zkp_client_partition_t;

/* A job's results. Owned by the caller, freed by zkp_client_result_free. */
typedef struct zkp_client_result_t zkp_client_result_t;

/* [any-thread] Proves a job and waits for it: on ZKP_OK *out holds every partition's result
 * by partition index, each with its own status (a failed partition is not a failed call). */
ZKP_EXPORT zkp_status_t zkp_client_prove(zkp_client_t *client, const zkp_client_job_t *job, zkp_client_result_t **out,
                                         zkp_error_t *err);

/* [any-thread] Queues a job and returns its id at once. */
ZKP_EXPORT zkp_status_t zkp_client_submit(zkp_client_t *client, const zkp_client_job_t *job, uint64_t *job_id,
                                          zkp_error_t *err);

/* [any-thread] Waits for a submitted job to complete: *out holds its results in completion
 * order. ZKP_ERR_NOT_FOUND for an unknown job. Leaving (a timeout) cancels nothing. */
ZKP_EXPORT zkp_status_t zkp_client_await(zkp_client_t *client, uint64_t job_id, zkp_client_result_t **out,
                                         zkp_error_t *err);

/* [any-thread] Cancels a job's pending partitions (they complete with ZKP_ERR_CANCELLED; those on
 * a device finish first). ZKP_ERR_NOT_FOUND for an unknown or finished job. */
ZKP_EXPORT zkp_status_t zkp_client_cancel(zkp_client_t *client, uint64_t job_id, zkp_error_t *err);

/* [any-thread] The job id of a result; its partition count; partition i (i < count, else NULL).
 * The pointer is owned by `result`, valid until zkp_client_result_free. */
ZKP_EXPORT uint64_t zkp_client_result_job_id(const zkp_client_result_t *result);
ZKP_EXPORT size_t zkp_client_result_count(const zkp_client_result_t *result);
ZKP_EXPORT const zkp_client_partition_t *zkp_client_result_partition(const zkp_client_result_t *result, size_t i);
/* Frees a result; NULL is a no-op. */
ZKP_EXPORT void zkp_client_result_free(zkp_client_result_t *result);

/* The server's state (StatusResponse of prover.proto; Stats is zkp_host_stats_t). */
#define ZKP_CLIENT_NAME_CAPACITY 64
typedef struct zkp_client_status_t {
  zkp_struct_header_t header; /* set by the caller: ZKP_HEADER_INIT(zkp_client_status_t) */
  char prover[ZKP_CLIENT_NAME_CAPACITY];  /* the prover plugin's name, NUL-terminated (truncated) */
  char version[ZKP_CLIENT_NAME_CAPACITY]; /* the server's zkpipe version */
  uint32_t simulated;                     /* 1: the prover only simulates proofs */
  uint32_t device_count;
  uint32_t keys_loaded;
  uint32_t jobs_open;
  uint64_t jobs_submitted;
  uint64_t jobs_finished;
  uint64_t partitions_succeeded;
  uint64_t partitions_failed;
  uint32_t pending;
  uint32_t synthesizing;
  uint32_t waiting;  /* the GPU queue's depth */
  uint32_t proving;
  uint64_t budget_total_bytes;
  uint64_t budget_used_bytes;
  uint64_t budget_peak_bytes;
  uint64_t uptime_ms;
} zkp_client_status_t;

/* [any-thread] The server's Status. */
ZKP_EXPORT zkp_status_t zkp_client_status(zkp_client_t *client, zkp_client_status_t *out, zkp_error_t *err);

/* [any-thread] Health: *serving is 1 while the server accepts work, 0 once it shuts down. */
ZKP_EXPORT zkp_status_t zkp_client_health(zkp_client_t *client, uint32_t *serving, zkp_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* ZKP_CLIENT_H */
