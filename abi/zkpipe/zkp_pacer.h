/*
 * zkpipe C ABI, version 1 — pacing strategies (factory id "zkp.pacer/1").
 *
 * A pacer decides when the next partition may be admitted (get its memory
 * reservation and start synthesis). It sees every event of the pipeline and answers
 * one question: how many nanoseconds until the next admission. The memory budget is
 * enforced by the host, not by the pacer: the host only asks when the budget could
 * grant the next partition, and only admits when both agree.
 *
 * Pacers never read a clock: every call carries the host's time (now_ns), so the
 * same pacer runs in real time in the host and in virtual time in the pacing
 * simulator, deterministically.
 *
 * The host serializes all calls on one pacer object ([serialized]): a pacer needs no
 * locks of its own.
 */
#ifndef ZKP_PACER_H
#define ZKP_PACER_H

#include "zkp_common.h"

#define ZKP_PACER_FACTORY_ID "zkp.pacer/1"

/* Returned by next_admission_ns when the pacer wants to wait for the next event. */
#define ZKP_PACER_WAIT_FOR_EVENT UINT64_MAX

/* Facts about the pipeline the pacer paces, fixed for its lifetime. */
typedef struct zkp_pacer_facts_t {
  zkp_struct_header_t header;
  uint32_t device_count;
  uint32_t workers_per_device; /* GPU workers = device_count * workers_per_device */
  uint32_t synthesis_threads;
  uint64_t budget_bytes; /* the host memory budget for synthesized partitions */
  uint64_t start_ns;     /* the pipeline clock when the pacer was created */
} zkp_pacer_facts_t;

/* A snapshot of the pipeline, taken under the host's scheduler lock. */
typedef struct zkp_pipeline_state_t {
  zkp_struct_header_t header;
  uint64_t now_ns;
  uint32_t pending;      /* partitions submitted and not yet admitted */
  uint32_t synthesizing; /* admitted, synthesis not done */
  uint32_t waiting;      /* synthesized, in the GPU queue (not counting those being proved) */
  uint32_t proving;      /* on a GPU worker now */
  uint64_t budget_used_bytes;
  uint64_t budget_total_bytes;
  uint64_t next_partition_bytes; /* reservation the next admission would need, 0 if none */
} zkp_pipeline_state_t;

typedef uint32_t zkp_pacer_event_kind_t;
#define ZKP_PACER_EVENT_ADMITTED 1u       /* a partition got its reservation */
#define ZKP_PACER_EVENT_SYNTHESIS_DONE 2u /* it entered the GPU queue (synthesis_ns set) */
#define ZKP_PACER_EVENT_GPU_START 3u      /* a worker took it (gpu_index, worker set) */
#define ZKP_PACER_EVENT_GPU_DONE 4u       /* a worker finished it (gpu_duration_ns set) */
#define ZKP_PACER_EVENT_FAILED 5u         /* it failed or was cancelled at any stage */
#define ZKP_PACER_EVENT_REQUEUED 6u       /* it failed on a device (gpu_index, worker set) and
                                             waits in the GPU queue again, for another device
                                             (the host's device_retries); GPU_START follows */
/* A pacer must ignore event kinds it does not know: later versions of this ABI may add
 * kinds (REQUEUED came after the first five). */

typedef struct zkp_pacer_event_t {
  zkp_struct_header_t header;
  zkp_pacer_event_kind_t kind;
  uint64_t job_id;
  uint32_t partition;
  int32_t gpu_index;        /* GPU_START/GPU_DONE/REQUEUED: the device; else -1 */
  uint32_t worker;          /* GPU_START/GPU_DONE/REQUEUED: the worker within the device */
  uint64_t gpu_duration_ns; /* GPU_DONE: device time measured by the worker */
  uint64_t synthesis_ns;    /* SYNTHESIS_DONE: time spent synthesizing */
  uint64_t bytes;           /* the partition's budget reservation */
  zkp_pipeline_state_t state; /* the pipeline after the event */
} zkp_pacer_event_t;

typedef struct zkp_pacer_t zkp_pacer_t;
struct zkp_pacer_t {
  zkp_struct_header_t header;
  void *impl;       /* owned by the plugin */
  const char *name; /* owned by the plugin, valid until destroy() */

  /* [serialized] Frees the pacer. */
  void(ZKP_CALL *destroy)(zkp_pacer_t *self);

  /* [serialized] Observes one pipeline event. `event` is owned by the host, valid for
   * the call. */
  void(ZKP_CALL *on_event)(zkp_pacer_t *self, const zkp_pacer_event_t *event);

  /* [serialized] Called when a partition is pending and the budget could grant it.
   * Returns how long from now until the next admission:
   *   0                         admit one partition now (the host then asks again);
   *   N > 0                     do NOT admit now; ask me again in N ns (or at the next
   *                             event, if one comes sooner). N is not an interval the
   *                             host keeps: a pacer that always answers N never admits
   *                             anything;
   *   ZKP_PACER_WAIT_FOR_EVENT  do not admit; ask me again at the next event.
   * So a pacer that admits every T ns answers the time remaining since its own last
   * admission, which it learns from ZKP_PACER_EVENT_ADMITTED:
   *
   *   on_event:           if (e->kind == ZKP_PACER_EVENT_ADMITTED) last = e->state.now_ns;
   *   next_admission_ns:  if (!admitted_once || s->now_ns >= last + T) return 0;
   *                       return last + T - s->now_ns;
   *
   * (samples/every_n_ms is this pacer, complete.) The host counts a pacer that admits
   * nothing for long while work is admissible as a stall, and logs it (the host's
   * admission_watchdog_ms). */
  uint64_t(ZKP_CALL *next_admission_ns)(zkp_pacer_t *self, const zkp_pipeline_state_t *state);

  /* [serialized] Writes a one-line, NUL-terminated status into buf (capacity bytes,
   * caller-owned; truncated to fit) and returns the length the whole line needs,
   * without the NUL. */
  size_t(ZKP_CALL *status_line)(zkp_pacer_t *self, char *buf, size_t capacity);
};

typedef struct zkp_pacer_factory_t {
  zkp_struct_header_t header;
  /* One "key=default  meaning" line per option; static, owned by the plugin. */
  const char *options_help;
  /* [any-thread] Creates a pacer (hosts created at once on several threads create their
   * pacers at once). An unknown or malformed option fails with
   * ZKP_ERR_INVALID_ARGUMENT and a message naming the pacer and the key. `facts` and
   * `host` are owned by the host; `host` outlives the pacer. *out is owned by the
   * plugin until (*out)->destroy(). */
  zkp_status_t(ZKP_CALL *create)(const zkp_host_services_t *host, const zkp_pacer_facts_t *facts,
                                 const zkp_option_t *options, size_t option_count,
                                 zkp_pacer_t **out, zkp_error_t *err);
} zkp_pacer_factory_t;

#endif /* ZKP_PACER_H */
