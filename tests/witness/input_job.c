/*
 * input_job ZKEY GENERATOR.so: one job of 24 input partitions (input.json text,
 * ZKP_WITNESS_INPUT_JSON) through libzkpipe's C API, on a key loaded with its circuit's witness
 * generator (zkp_key_source_t.witness_generator), the cpu prover and 4 synthesis threads, so the
 * generator computes witnesses on several threads at once. The circuit is the committed chain
 * vector's (inputs x and k). Partition 7's input misses a signal and partition 13's is not JSON:
 * those two fail with ZKP_ERR_BAD_INPUT naming why, and every other partition proves and
 * verifies (the host's self-check), each once. Exit 0 when all of that holds.
 */
#include <zkpipe/zkpipe.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kPartitions = 24, kMissing = 7, kMalformed = 13 };

typedef struct tally_t {
  unsigned delivered[kPartitions];
  zkp_status_t status[kPartitions];
  char message[kPartitions][160];
  unsigned self_checked;
} tally_t;

static void on_partition(void *user_data, const zkp_completion_t *c) {
  tally_t *t = (tally_t *)user_data;
  if (c->partition >= kPartitions) return;
  t->delivered[c->partition]++;
  t->status[c->partition] = c->status;
  snprintf(t->message[c->partition], sizeof t->message[c->partition], "%s", c->message);
  if (c->status == ZKP_OK && (c->flags & ZKP_COMPLETION_SELF_CHECKED)) t->self_checked++;
}

int main(int argc, char **argv) {
  const char *overrides[] = {"prover=cpu", "synthesis_threads=4", "workers_per_device=2", "self_check=true",
                             "log_level=error"};
  zkp_error_t err = {ZKP_HEADER_INIT(zkp_error_t), ZKP_OK, {0}};
  zkp_host_t *host = NULL;
  zkp_key_source_t source = {ZKP_HEADER_INIT(zkp_key_source_t), NULL, NULL, 0, ZKP_KEY_FORMAT_ZKEY, NULL};
  static char inputs[kPartitions][64];
  zkp_partition_t parts[kPartitions];
  zkp_job_t job;
  static tally_t tally;
  uint64_t key_id = 0, job_id = 0;
  unsigned i, bad = 0;

  if (argc != 3) {
    fprintf(stderr, "usage: %s ZKEY GENERATOR.so\n", argv[0]);
    return 2;
  }
  if (zkp_host_create(NULL, overrides, sizeof overrides / sizeof overrides[0], &host, &err) != ZKP_OK) {
    fprintf(stderr, "zkp_host_create: %s\n", err.message);
    return 1;
  }
  source.path = argv[1];
  source.witness_generator = argv[2];
  if (zkp_host_load_key(host, &source, &key_id, &err) != ZKP_OK) {
    fprintf(stderr, "zkp_host_load_key: %s\n", err.message);
    zkp_host_destroy(host, ZKP_SHUTDOWN_CANCEL);
    return 1;
  }
  for (i = 0; i < kPartitions; ++i) {
    if (i == kMissing) {
      snprintf(inputs[i], sizeof inputs[i], "{\"x\": \"%u\"}", i + 1);
    } else if (i == kMalformed) {
      snprintf(inputs[i], sizeof inputs[i], "{\"x\": \"%u\", \"k\": ", i + 1);
    } else {
      snprintf(inputs[i], sizeof inputs[i], "{\"x\": \"%u\", \"k\": \"%u\"}", i + 1, 3 * i + 2);
    }
    memset(&parts[i], 0, sizeof parts[i]);
    parts[i].header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_partition_t);
    parts[i].witness.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_witness_t);
    parts[i].witness.kind = ZKP_WITNESS_INPUT_JSON;
    parts[i].witness.data = inputs[i];
    parts[i].witness.size = strlen(inputs[i]);
  }
  memset(&job, 0, sizeof job);
  job.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_job_t);
  job.key_id = key_id;
  job.partitions = parts;
  job.partition_count = kPartitions;
  job.gpu_index = -1;
  job.on_partition = on_partition;
  job.user_data = &tally;
  if (zkp_host_submit(host, &job, &job_id, &err) != ZKP_OK || zkp_host_wait(host, job_id, -1, &err) != ZKP_OK) {
    fprintf(stderr, "submit/wait: %s\n", err.message);
    zkp_host_destroy(host, ZKP_SHUTDOWN_CANCEL);
    return 1;
  }
  for (i = 0; i < kPartitions; ++i) {
    const int should_fail = i == kMissing || i == kMalformed;
    if (tally.delivered[i] != 1) {
      fprintf(stderr, "partition %u delivered %u times\n", i, tally.delivered[i]);
      bad = 1;
    } else if (should_fail && tally.status[i] != ZKP_ERR_BAD_INPUT) {
      fprintf(stderr, "partition %u: %s (%s), expected bad input\n", i, zkp_status_name(tally.status[i]), tally.message[i]);
      bad = 1;
    } else if (!should_fail && tally.status[i] != ZKP_OK) {
      fprintf(stderr, "partition %u: %s: %s\n", i, zkp_status_name(tally.status[i]), tally.message[i]);
      bad = 1;
    }
  }
  if (strstr(tally.message[kMissing], "1 missing") == NULL || strstr(tally.message[kMalformed], "input.json") == NULL) {
    fprintf(stderr, "the failures do not say why: '%s', '%s'\n", tally.message[kMissing], tally.message[kMalformed]);
    bad = 1;
  }
  if (tally.self_checked != kPartitions - 2) {
    fprintf(stderr, "%u proofs self-checked, expected %u\n", tally.self_checked, kPartitions - 2);
    bad = 1;
  }
  zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN);
  printf("input_job: %u input partitions: %u proved and verified, 2 refused (%s | %s)\n", kPartitions, tally.self_checked,
         tally.message[kMissing], tally.message[kMalformed]);
  return bad;
}
