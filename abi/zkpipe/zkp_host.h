/*
 * zkpipe C ABI, version 1 — the host API for callers (C, Rust, Go, the CLI).
 *
 * Link against libzkpipe. A host owns one prover plugin and one pacer plugin, chosen
 * by its configuration, and runs the proving pipeline:
 *
 *   submit → scheduler (priority, then FIFO) → admission (pacer AND memory budget)
 *     → synthesis pool → GPU queue → W workers per device → self-check → callbacks
 *
 * Callbacks. Every callback of every job runs on the host's single completion thread,
 * one at a time, in the order partitions complete. Pointers in the records are owned
 * by the host and valid until the callback returns (copy what you keep). A callback
 * MAY call zkp_host_submit, zkp_host_cancel, zkp_host_stats, zkp_host_key_info and
 * zkp_host_verify (a pairing: milliseconds that delay the later callbacks). It
 * MUST NOT call zkp_host_wait, zkp_host_shutdown or zkp_host_destroy (they would wait
 * for the callback itself; they fail with ZKP_ERR_INVALID_ARGUMENT when called from
 * the completion thread). A callback that throws a C++ exception or returns through a
 * foreign unwinder is not supported; the host catches C++ exceptions, logs them and
 * carries on, but a Rust panic must be caught on the Rust side (catch_unwind).
 * A slow callback delays later callbacks, never the GPUs.
 */
#ifndef ZKP_HOST_H
#define ZKP_HOST_H

#include "zkp_common.h"
#include "zkp_prover.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zkp_host_t zkp_host_t; /* opaque */

/* One partition of a job: a witness to synthesize, or inputs already synthesized. */
typedef struct zkp_partition_t {
  zkp_struct_header_t header;
  zkp_witness_t witness;                 /* used when `synthesized` is NULL */
  const zkp_synthesized_t *synthesized;  /* skips synthesis (caller-synthesized inputs) */
} zkp_partition_t;

/* Completion flags. */
#define ZKP_COMPLETION_SIMULATED 1u    /* the prover is a simulation: no proof bytes */
#define ZKP_COMPLETION_SELF_CHECKED 2u /* the proof was verified before delivery: by the host's
                                          self-check, or by the prover itself
                                          (ZKP_PROVE_OUTPUT_VERIFIED, zkp_prover.h) */

/* The record of one finished partition (success or failure). */
typedef struct zkp_completion_t {
  zkp_struct_header_t header;
  uint64_t job_id;
  uint32_t partition;
  zkp_status_t status;
  const char *message;      /* "" on success; owned by the host, valid during the callback */
  int32_t gpu_index;        /* the device that ran it; -1 if it never reached one */
  uint32_t worker;          /* the worker within that device */
  uint64_t gpu_duration_ns; /* device time measured by the worker */
  uint64_t synthesis_ns;    /* time in synthesis */
  uint64_t queue_wait_ns;   /* time in the GPU queue */
  uint64_t total_ns;        /* submit to completion */
  zkp_curve_t curve;
  uint32_t flags;                /* ZKP_COMPLETION_* */
  const uint8_t *proof;          /* proof bytes (zkp_prover.h format); NULL if none */
  size_t proof_size;
  const uint8_t *public_inputs;  /* n_public scalars; NULL if none */
  size_t public_size;
} zkp_completion_t;

/* The record of a finished job: every partition has completed, failed or been cancelled. */
typedef struct zkp_job_summary_t {
  zkp_struct_header_t header;
  uint64_t job_id;
  zkp_status_t status; /* ZKP_OK if every partition succeeded, else the first failure's */
  uint32_t partitions;
  uint32_t succeeded;
  uint32_t failed;
  uint32_t cancelled;
  uint64_t wall_ns; /* submit to the last completion */
} zkp_job_summary_t;

/* [completion-thread] Callbacks. `record` is owned by the host, valid during the call. */
typedef void(ZKP_CALL *zkp_partition_callback_t)(void *user_data, const zkp_completion_t *record);
typedef void(ZKP_CALL *zkp_job_callback_t)(void *user_data, const zkp_job_summary_t *summary);
/* [worker-thread, completion-thread] zkp_job_t.on_input_released: zkpipe reads nothing more of
 * what partition `partition`'s zkp_partition_t points to. Must return quickly, and must not
 * call the host (it may run on a device's worker thread). */
typedef void(ZKP_CALL *zkp_input_callback_t)(void *user_data, uint32_t partition);

typedef struct zkp_job_t {
  zkp_struct_header_t header;
  uint64_t key_id;                    /* from zkp_host_load_key */
  const zkp_partition_t *partitions;  /* owned by the caller; the array is copied at submit,
                                         the buffers it points to must live until the job ends */
  uint32_t partition_count;
  int32_t gpu_index;                  /* -1: any device; else every partition runs there */
  int32_t priority;                   /* higher runs first; FIFO among equals */
  /* NULL: fresh randomness from the OS CSPRNG for every proof. Else partition_count
   * pairs r || s (64 bytes each) for reproducible tests; copied at submit. */
  const uint8_t *randomness;
  zkp_partition_callback_t on_partition; /* may be NULL */
  zkp_job_callback_t on_job;             /* may be NULL */
  void *user_data;                       /* passed back to the callbacks, never touched */
  /* Added after the first release: present when header.struct_size covers it; may be NULL.
   * Called once for each partition, before its on_partition, from when zkpipe will read
   * nothing more of the buffers its zkp_partition_t points to: the caller may free or reuse
   * them from the call on (the job's other partitions' buffers must still live). Early where
   * the prover can say so (zkp_prover_t.prove_wait; the cuda prover, for a caller-synthesized
   * partition, once its device work has ended, before the CPU epilogue), on that device's
   * worker thread: such a partition is never retried on another device, a later failure is
   * its outcome. Otherwise on the completion thread, just before on_partition. This is what
   * lets a caller (cuzk's start/finish split) build the next partition's inputs while the
   * last one's epilogue runs. */
  zkp_input_callback_t on_input_released;
} zkp_job_t;

typedef struct zkp_host_stats_t {
  zkp_struct_header_t header;
  uint64_t jobs_submitted;
  uint64_t jobs_finished;
  uint64_t partitions_succeeded;
  uint64_t partitions_failed;    /* includes cancelled */
  uint32_t pending;
  uint32_t synthesizing;
  uint32_t waiting;
  uint32_t proving;
  uint64_t budget_total_bytes;
  uint64_t budget_used_bytes;
  uint64_t budget_peak_bytes;    /* highest budget_used_bytes ever seen */
  uint32_t device_count;
  uint32_t workers_per_device;
  /* Added after the first release (present when struct_size covers it): stalls the
   * host's admission watchdog reported, each a stretch in which partitions were
   * pending, the budget could grant the next and the pacer admitted nothing for
   * max(admission_watchdog_ms, 20 x its last interval between admissions). */
  uint64_t admission_stalls;
  /* Added after admission_stalls (present when struct_size covers it): the time between the
   * pipeline's last two admissions, the pacer's current interval as the host sees it (0 until
   * two partitions have been admitted). */
  uint64_t admission_interval_ns;
  /* Added after admission_interval_ns (present when struct_size covers it): device processes
   * restarted after they died or were killed (isolation = process), every device together;
   * 0 with isolation = thread. */
  uint64_t device_restarts;
  /* Added after device_restarts (present when struct_size covers it): devices quarantined now
   * after a device error (ZKP_ERR_DEVICE or ZKP_ERR_DEVICE_LOST), taking no unpinned partitions
   * while another device is usable. With isolation = process a device leaves quarantine when its
   * restarted process serves; with isolation = thread it stays until the host is restarted. */
  uint32_t devices_quarantined;
} zkp_host_stats_t;

/* How shutdown/destroy treat work in flight. */
typedef uint32_t zkp_shutdown_mode_t;
#define ZKP_SHUTDOWN_DRAIN 0u  /* finish every submitted partition, then stop */
#define ZKP_SHUTDOWN_CANCEL 1u /* cancel pending work, finish what is on a device */

/* [any-thread] The ABI version libzkpipe implements (ZKP_ABI_VERSION when built). */
ZKP_EXPORT uint32_t zkp_host_abi_version(void);

/* [any-thread] Creates a host from an INI config file (NULL: defaults only) and
 * command-line style overrides ("prover=sim", "workers_per_device=2",
 * "prover.devices=2"), applied after the file. Unknown keys and bad values fail with
 * ZKP_ERR_INVALID_ARGUMENT; a plugin that cannot be loaded fails with its reason.
 * *out is owned by the caller until zkp_host_destroy(). Strings are owned by the
 * caller, valid for the call. */
ZKP_EXPORT zkp_status_t zkp_host_create(const char *config_path, const char *const *overrides,
                                        size_t override_count, zkp_host_t **out,
                                        zkp_error_t *err);

/* [any-thread] Loads a proving key on every device and returns its id (never 0). */
ZKP_EXPORT zkp_status_t zkp_host_load_key(zkp_host_t *host, const zkp_key_source_t *source,
                                          uint64_t *key_id, zkp_error_t *err);

/* [any-thread] Describes a loaded key into *out (caller-owned). */
ZKP_EXPORT zkp_status_t zkp_host_key_info(zkp_host_t *host, uint64_t key_id,
                                          zkp_key_info_t *out, zkp_error_t *err);

/* [any-thread] Submits a job and returns its id (never 0, unique for the host's life).
 * Fails with ZKP_ERR_INVALID_ARGUMENT if gpu_index >= the device count, with
 * ZKP_ERR_BUDGET_EXHAUSTED if one partition alone exceeds the memory budget, with
 * ZKP_ERR_CANCELLED after zkp_host_shutdown. Nothing is submitted on failure. */
ZKP_EXPORT zkp_status_t zkp_host_submit(zkp_host_t *host, const zkp_job_t *job,
                                        uint64_t *job_id, zkp_error_t *err);

/* [any-thread] Cancels a job: pending partitions complete with ZKP_ERR_CANCELLED,
 * those on a device finish first. ZKP_ERR_NOT_FOUND for an unknown or finished job. */
ZKP_EXPORT zkp_status_t zkp_host_cancel(zkp_host_t *host, uint64_t job_id, zkp_error_t *err);

/* [any-thread but not the completion thread] Waits until job `job_id` (0: every job
 * submitted so far) has finished and its callbacks have returned, or timeout_ms passes
 * (-1: forever; then ZKP_ERR_TIMEOUT). */
ZKP_EXPORT zkp_status_t zkp_host_wait(zkp_host_t *host, uint64_t job_id, int64_t timeout_ms,
                                      zkp_error_t *err);

/* [any-thread] Counters and gauges of the pipeline into *out (caller-owned). The host
 * writes the fields out->header.struct_size covers, at least those of the first release
 * (through workers_per_device; smaller fails with ZKP_ERR_ABI_MISMATCH), and keeps the
 * caller's header. */
ZKP_EXPORT zkp_status_t zkp_host_stats(zkp_host_t *host, zkp_host_stats_t *out,
                                       zkp_error_t *err);

/* [any-thread] Describes device `gpu_index` of the host's prover (per-device counters). */
ZKP_EXPORT zkp_status_t zkp_host_device_info(zkp_host_t *host, uint32_t gpu_index,
                                             zkp_device_info_t *out, zkp_error_t *err);

/* [any-thread] The pacer's status line into buf (capacity bytes, NUL-terminated,
 * truncated to fit); *needed gets the full length without the NUL. */
ZKP_EXPORT zkp_status_t zkp_host_pacer_status(zkp_host_t *host, char *buf, size_t capacity,
                                              size_t *needed, zkp_error_t *err);

/* [any-thread but not the completion thread] Stops accepting jobs (later submits fail
 * with ZKP_ERR_CANCELLED), then drains or cancels the work in flight and waits for it. */
ZKP_EXPORT zkp_status_t zkp_host_shutdown(zkp_host_t *host, zkp_shutdown_mode_t mode,
                                          zkp_error_t *err);

/* [any-thread but not the completion thread] Shuts down (if not yet) and frees the host;
 * `host` is invalid afterwards. NULL is a no-op. */
ZKP_EXPORT void zkp_host_destroy(zkp_host_t *host, zkp_shutdown_mode_t mode);

/* Added after the first release (a libzkpipe of the first release does not export it;
 * zkp_host_abi_version stays 1, as every addition is backward compatible).
 * [any-thread] Checks a proof of key `key_id` with the host's prover, the pairing check
 * of the host's self-check, against the key the host already holds. `proof` (proof_size
 * bytes, zkp_prover.h's format) and `public_inputs` (public_size bytes: the key's n_public
 * scalars) are the bytes a completion hands out (zkp_completion_t.proof, .public_inputs),
 * or the same encoding from elsewhere; owned by the caller, read during the call only.
 * Calls may overlap each other, jobs in flight and zkp_host_shutdown. Returns:
 *   ZKP_OK                   the proof is valid for these public inputs;
 *   ZKP_ERR_INVALID_PROOF    it is not: the pairing check fails, a point of the proof is
 *                            not a point of its group, or a public input is not below r;
 *   ZKP_ERR_NOT_FOUND        key_id is not a key of this host;
 *   ZKP_ERR_BAD_INPUT        proof_size is not the key's proof_size, or public_size is not
 *                            the key's public_size (the wrong number of public inputs); the
 *                            message gives both sizes;
 *   ZKP_ERR_UNSUPPORTED      the prover cannot verify (a simulation, or a backend without
 *                            ZKP_PROVER_FLAG_VERIFY);
 *   ZKP_ERR_INVALID_ARGUMENT host is NULL, or a buffer is NULL with a non-zero size;
 *   another status           the prover could not check (its message says why). */
ZKP_EXPORT zkp_status_t zkp_host_verify(zkp_host_t *host, uint64_t key_id, const uint8_t *proof,
                                        size_t proof_size, const uint8_t *public_inputs,
                                        size_t public_size, zkp_error_t *err);

/* Added after the first release. [any-thread] Drops key `key_id`: later submits and
 * zkp_host_key_info with it fail with ZKP_ERR_NOT_FOUND, and the prover frees the key (on
 * every device) once nothing holds it. Refused with ZKP_ERR_INVALID_ARGUMENT, the key kept,
 * while partitions of a job that uses it have not all completed (cancel or wait for them
 * first); ZKP_ERR_NOT_FOUND for an unknown key. Ids are never reused. */
ZKP_EXPORT zkp_status_t zkp_host_unload_key(zkp_host_t *host, uint64_t key_id, zkp_error_t *err);

/* Added after the first release. The host's log lines, delivered to the caller's logger.
 *
 * Per process, not per host: the host, its plugins (zkp_host_services_t.log) and `zkpipe
 * serve` write to one process-wide logger, so a line such as a plugin's load failure
 * belongs to no host, and two hosts in one process share one sink. */
typedef struct zkp_log_record_t {
  zkp_struct_header_t header;
  zkp_log_level_t level;  /* ZKP_LOG_TRACE .. ZKP_LOG_ERROR */
  const char *logger;     /* the logger's name ("zkpipe"); owned by the host, valid during the call */
  const char *message;    /* the message as written (UTF-8 unless a plugin wrote other bytes),
                             NUL-terminated, no trailing newline; owned by the host, valid
                             during the call (copy what you keep) */
  size_t message_size;    /* strlen(message) */
  uint64_t unix_time_ns;  /* when the line was written: nanoseconds since 1970-01-01 UTC */
} zkp_log_record_t;

/* [any-thread] Receives one log line. It runs on the thread that wrote the line: any
 * host thread (the synthesis pool, a GPU worker, the completion thread, the admission
 * thread) or the caller's own thread inside a zkp_host_* call, and calls on different
 * threads may overlap, so the callback must be thread-safe. It must not call
 * zkp_host_set_log_sink (that fails with ZKP_ERR_INVALID_ARGUMENT from inside it) and must
 * not wait for a host thread (zkp_host_wait, a lock a host callback holds) or for a thread
 * inside zkp_host_set_log_sink (it waits for this call): that is the one
 * way it can deadlock the host. Otherwise a slow callback only slows it: the
 * thread that logged waits for it (a GPU worker logging a partition, the completion thread
 * between callbacks). A sink that may block should queue the line and return. */
typedef void(ZKP_CALL *zkp_log_callback_t)(void *user_data, const zkp_log_record_t *record);

/* [any-thread but not inside the log callback] Routes the process's log lines at level
 * min_level and above to `callback` instead of stderr; NULL restores stderr (then user_data
 * and min_level are ignored). The log_level key filters first: a line below it reaches
 * neither (the logger is the process's, so the log_level of the host created last holds).
 * With isolation = process, a device process's own lines go to its stderr (inherited from
 * this process), not to the callback. This waits for calls of the previous callback in
 * flight: when it returns, that callback is not running and will not be called again, so its
 * user_data may be freed. user_data is passed back untouched; owned by the caller.
 * ZKP_ERR_INVALID_ARGUMENT for a min_level outside ZKP_LOG_TRACE..ZKP_LOG_ERROR or a call
 * from inside the callback. */
ZKP_EXPORT zkp_status_t zkp_host_set_log_sink(zkp_log_callback_t callback, void *user_data,
                                              zkp_log_level_t min_level, zkp_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* ZKP_HOST_H */
