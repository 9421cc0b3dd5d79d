/*
 * The C sample: drives libzkpipe end to end through its C API (zkp_host.h).
 *
 *   zkpipe_sample_c [partitions] [key=value ...]
 *
 * It creates a host with the simulated prover (2 devices) and the greedy pacer, loads
 * a key, submits one job, prints every partition as it completes (callbacks run on the
 * host's completion thread), waits, prints the stats, and shuts down. The plugins are
 * found next to libzkpipe.so without any configuration. Extra key=value arguments are
 * configuration overrides ("prover.gpu_ms=50", "queue=shared", ...).
 *
 * It is also a test: it exits 1 unless every partition succeeded exactly once and the
 * memory budget was respected.
 */
#include <zkpipe/zkpipe.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxPartitions = 1024, kMaxOverrides = 32 };

/* What the callbacks saw; written on the completion thread, read after zkp_host_wait. */
typedef struct tally_t {
  unsigned delivered[kMaxPartitions];
  unsigned succeeded;
  unsigned failed;
  int job_done;
} tally_t;

static void on_partition(void *user_data, const zkp_completion_t *c) {
  tally_t *t = (tally_t *)user_data;
  if (c->partition < kMaxPartitions) t->delivered[c->partition]++;
  if (c->status == ZKP_OK) {
    t->succeeded++;
    printf("partition %u: ok on gpu %d worker %u, gpu %.1f ms, queue %.1f ms%s\n", c->partition,
           c->gpu_index, c->worker, (double)c->gpu_duration_ns / 1e6, (double)c->queue_wait_ns / 1e6,
           (c->flags & ZKP_COMPLETION_SIMULATED) ? " (simulated)" : "");
  } else {
    t->failed++;
    printf("partition %u: %s: %s\n", c->partition, zkp_status_name(c->status), c->message);
  }
}

static void on_job(void *user_data, const zkp_job_summary_t *s) {
  tally_t *t = (tally_t *)user_data;
  t->job_done = 1;
  printf("job %llu: %s, %u/%u succeeded in %.1f ms\n", (unsigned long long)s->job_id,
         zkp_status_name(s->status), s->succeeded, s->partitions, (double)s->wall_ns / 1e6);
}

/* Prints the failure and returns 1 when status is not ZKP_OK. */
static int failed(const char *what, zkp_status_t status, const zkp_error_t *err) {
  if (status == ZKP_OK) return 0;
  fprintf(stderr, "%s failed: %s: %s\n", what, zkp_status_name(status), err->message);
  return 1;
}

int main(int argc, char **argv) {
  unsigned partitions = 10;
  const char *overrides[kMaxOverrides] = {"prover=sim", "pacer=greedy", "prover.devices=2",
                                          "prover.gpu_ms=10", "budget=4MiB", "log_level=warn"};
  size_t override_count = 6;
  zkp_error_t err = {ZKP_HEADER_INIT(zkp_error_t), ZKP_OK, {0}};
  zkp_host_t *host = NULL;
  zkp_key_source_t source = {ZKP_HEADER_INIT(zkp_key_source_t), NULL, NULL, 0, ZKP_KEY_FORMAT_ZKEY, NULL};
  uint64_t key_id = 0, job_id = 0;
  zkp_partition_t parts[kMaxPartitions];
  zkp_job_t job;
  zkp_host_stats_t stats;
  static tally_t tally;
  char pacer_line[256];
  size_t needed = 0;
  unsigned i;
  int bad = 0;

  memset(&stats, 0, sizeof stats);
  stats.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_host_stats_t);
  if (argc > 1) partitions = (unsigned)strtoul(argv[1], NULL, 10);
  if (partitions == 0 || partitions > kMaxPartitions) {
    fprintf(stderr, "usage: %s [partitions 1..%d] [key=value ...]\n", argv[0], kMaxPartitions);
    return 2;
  }
  for (i = 2; i < (unsigned)argc && override_count < kMaxOverrides; ++i) overrides[override_count++] = argv[i];

  printf("libzkpipe ABI version %u\n", zkp_host_abi_version());
  if (failed("zkp_host_create", zkp_host_create(NULL, overrides, override_count, &host, &err), &err)) return 1;
  if (failed("zkp_host_load_key", zkp_host_load_key(host, &source, &key_id, &err), &err)) {
    zkp_host_destroy(host, ZKP_SHUTDOWN_CANCEL);
    return 1;
  }

  for (i = 0; i < partitions; ++i) {
    memset(&parts[i], 0, sizeof parts[i]);
    parts[i].header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_partition_t);
    parts[i].witness.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_witness_t);
    parts[i].witness.kind = ZKP_WITNESS_NONE; /* the simulated prover needs no witness */
  }
  memset(&job, 0, sizeof job);
  job.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_job_t);
  job.key_id = key_id;
  job.partitions = parts;
  job.partition_count = partitions;
  job.gpu_index = -1; /* any device */
  job.priority = 0;
  job.randomness = NULL; /* fresh randomness per proof */
  job.on_partition = on_partition;
  job.on_job = on_job;
  job.user_data = &tally;

  if (failed("zkp_host_submit", zkp_host_submit(host, &job, &job_id, &err), &err) ||
      failed("zkp_host_wait", zkp_host_wait(host, job_id, -1, &err), &err) ||
      failed("zkp_host_stats", zkp_host_stats(host, &stats, &err), &err) ||
      failed("zkp_host_pacer_status",
             zkp_host_pacer_status(host, pacer_line, sizeof pacer_line, &needed, &err), &err)) {
    zkp_host_destroy(host, ZKP_SHUTDOWN_CANCEL);
    return 1;
  }

  for (i = 0; i < stats.device_count; ++i) {
    zkp_device_info_t info;
    memset(&info, 0, sizeof info);
    info.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_device_info_t);
    if (failed("zkp_host_device_info", zkp_host_device_info(host, i, &info, &err), &err)) bad = 1;
    printf("device %u: %s, %llu proved\n", i, info.name, (unsigned long long)info.partitions_proved);
  }
  printf("pacer: %s\n", pacer_line);
  printf("budget peak %llu of %llu bytes\n", (unsigned long long)stats.budget_peak_bytes,
         (unsigned long long)stats.budget_total_bytes);

  for (i = 0; i < partitions; ++i) {
    if (tally.delivered[i] != 1) {
      fprintf(stderr, "partition %u was delivered %u times\n", i, tally.delivered[i]);
      bad = 1;
    }
  }
  if (tally.succeeded != partitions || !tally.job_done) bad = 1;
  if (stats.budget_peak_bytes > stats.budget_total_bytes) bad = 1;

  if (failed("zkp_host_shutdown", zkp_host_shutdown(host, ZKP_SHUTDOWN_DRAIN, &err), &err)) bad = 1;
  zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN);
  printf("%s\n", bad ? "FAILED" : "ok");
  return bad;
}
