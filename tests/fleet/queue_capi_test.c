/* queue_capi_test URL NOSCHEMA_URL BN254_DIR OUT_DIR READY_FILE BLS12_381_DIR [RESTART_FILE] — the C API of zkp_queue.h
 * against the real PostgreSQL server of fleet.sh (mode capi), written in C99 as a caller would.
 *
 * Before any worker runs: the statuses of bad calls (a NULL, an unreachable server
 * (ZKP_QUEUE_ERR_UNAVAILABLE), a database that does not exist (ZKP_QUEUE_ERR_REFUSED), a URL that
 * does not parse, a database without the schema, a partition with both or neither witness, a missing key, an unknown curve);
 * then job A (priority 2: a witness by path, one by bytes, one malformed), job B (gpu_index 3,
 * max_attempts 7),
 * job C (curve bls12_381, BLS12_381_DIR's key and witness, by path), job D (gpu_index 0, curve bn254); A's status, and a short wait that
 * must time out. It then creates READY_FILE, and fleet.sh starts one worker with one device that
 * declares bn254 only. Then: A completes (wait), its proofs and public inputs come back as bytes
 * and as snarkjs JSON (written to OUT_DIR for `zkpipe verify`), the malformed one failed with
 * ZKP_ERR_BAD_INPUT; D completes; B and C are still waiting, unclaimed, when waited on after
 * that. With RESTART_FILE: it creates RESTART_FILE.ask, waits (60 s at most) for RESTART_FILE,
 * which fleet.sh creates once it has restarted the server, and checks that the same handle
 * works again (its connection is made anew). Prints "ok"/"FAIL" lines and "jobs A B C D" last (fleet.sh reads the ids); exit 0 only
 * if nothing failed. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <zkpipe/zkp_queue.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int passed, failed;

/* Declares `name` of type T, zeroed, with its header set, as a C caller does. */
#define DECLARE(T, name)         \
  T name;                        \
  memset(&name, 0, sizeof name); \
  name.header = (zkp_struct_header_t)ZKP_HEADER_INIT(T)

static void check(int cond, const char *what, const zkp_error_t *err) {
  if (cond) {
    printf("ok    %s\n", what);
    passed++;
  } else {
    printf("FAIL  %s (last status %d: %s)\n", what, (int)err->status, err->message);
    failed++;
  }
}

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  long n;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = (unsigned char *)malloc((size_t)n);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    *size = (size_t)n;
  }
  fclose(f);
  return buf;
}

static int write_text(const char *dir, unsigned idx, const char *suffix, const char *text) {
  char path[4096];
  FILE *f;
  int ok;
  snprintf(path, sizeof path, "%s/%u.%s", dir, idx, suffix);
  f = fopen(path, "w");
  if (f == NULL) return 0;
  ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok;
}

/* Creates `path` (empty). */
static void touch(const char *path) {
  FILE *f = fopen(path, "w");
  if (f != NULL) fclose(f);
}

/* Waits up to 60 s for `path` to exist. */
static int wait_for_file(const char *path) {
  struct timespec tick = {0, 50 * 1000 * 1000};
  int i;
  for (i = 0; i < 1200; i++) {
    FILE *f = fopen(path, "r");
    if (f != NULL) {
      fclose(f);
      return 1;
    }
    nanosleep(&tick, NULL);
  }
  return 0;
}

static zkp_queue_job_t job_of(const char *key, const zkp_queue_partition_t *parts, uint32_t n) {
  zkp_queue_job_t job;
  memset(&job, 0, sizeof job);
  job.header.struct_size = sizeof job;
  job.header.struct_version = 1;
  job.key_path = key;
  job.key_format = ZKP_KEY_FORMAT_ZKEY;
  job.gpu_index = -1;
  job.curve = ZKP_CURVE_UNKNOWN;
  job.partitions = parts;
  job.partition_count = n;
  return job;
}

int main(int argc, char **argv) {
  zkp_error_t err = {ZKP_HEADER_INIT(zkp_error_t), ZKP_OK, {0}};
  zkp_queue_t *q = NULL, *none = NULL;
  DECLARE(zkp_queue_job_status_t, st);
  DECLARE(zkp_queue_result_t, res);
  zkp_queue_partition_t parts[3];
  zkp_queue_job_t job;
  char key[4096], wtns[4096], bls_key[4096], bls_wtns[4096], no_db[4096];
  unsigned char *bytes;
  size_t size = 0;
  uint64_t a = 0, b = 0, c = 0, d = 0, id = 0;
  unsigned i;
  for (i = 0; i < 3; i++) {
    memset(&parts[i], 0, sizeof parts[i]);
    parts[i].header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_queue_partition_t);
  }
  if (argc != 7 && argc != 8) {
    fprintf(stderr, "usage: queue_capi_test URL NOSCHEMA_URL BN254_DIR OUT_DIR READY_FILE BLS12_381_DIR [RESTART_FILE]\n");
    return 2;
  }
  {
    /* argv[1] with the database "zkpipe_no_such_db" in place of "postgres" */
    const char *at = strstr(argv[1], "/postgres");
    if (at == NULL) {
      fprintf(stderr, "the URL %s names no database /postgres\n", argv[1]);
      return 2;
    }
    snprintf(no_db, sizeof no_db, "%.*s/zkpipe_no_such_db%s", (int)(at - argv[1]), argv[1], at + strlen("/postgres"));
  }
  snprintf(key, sizeof key, "%s/circuit.zkey", argv[3]);
  snprintf(wtns, sizeof wtns, "%s/witness.wtns", argv[3]);
  snprintf(bls_key, sizeof bls_key, "%s/circuit.zkey", argv[6]);
  snprintf(bls_wtns, sizeof bls_wtns, "%s/witness.wtns", argv[6]);
  bytes = read_file(wtns, &size);
  if (bytes == NULL) {
    fprintf(stderr, "cannot read %s\n", wtns);
    return 2;
  }

  check(zkp_queue_connect(NULL, &q, &err) == ZKP_ERR_INVALID_ARGUMENT, "connect(NULL url): ZKP_ERR_INVALID_ARGUMENT", &err);
  check(zkp_queue_connect("postgresql://zkpipe@/postgres?host=/nonexistent-zkpipe-socket-dir", &none, &err) ==
                ZKP_QUEUE_ERR_UNAVAILABLE &&
            none == NULL && strstr(err.message, "cannot connect") != NULL &&
            strcmp(zkp_queue_status_name(err.status), "database unavailable") == 0,
        "connect to a server that is not there: ZKP_QUEUE_ERR_UNAVAILABLE ('database unavailable'), 'cannot connect ...'",
        &err);
  check(zkp_queue_connect(no_db, &none, &err) == ZKP_QUEUE_ERR_REFUSED && none == NULL &&
            strstr(err.message, "does not exist") != NULL,
        "connect to a database that does not exist: ZKP_QUEUE_ERR_REFUSED, 'does not exist'", &err);
  check(zkp_queue_connect("postgresql://zkpipe@/postgres?nosuchoption=1", &none, &err) == ZKP_ERR_INVALID_ARGUMENT &&
            none == NULL && strstr(err.message, "does not parse") != NULL,
        "connect with a URL that does not parse: ZKP_ERR_INVALID_ARGUMENT", &err);
  check(strcmp(zkp_queue_status_name(ZKP_ERR_TIMEOUT), zkp_status_name(ZKP_ERR_TIMEOUT)) == 0 &&
            strcmp(zkp_queue_status_name(ZKP_QUEUE_ERR_REFUSED), "database refused the connection") == 0,
        "zkp_queue_status_name names the queue's statuses and zkp_common.h's", &err);
  check(zkp_queue_connect(argv[2], &none, &err) == ZKP_ERR_ABI_MISMATCH && strstr(err.message, "queue init") != NULL,
        "connect to a database without the schema: ZKP_ERR_ABI_MISMATCH, 'run zkpipe queue init'", &err);
  zkp_queue_disconnect(none);
  if (zkp_queue_connect(argv[1], &q, &err) != ZKP_OK) {
    check(0, "connect", &err);
    return 1;
  }
  check(1, "connect to the store", &err);

  /* Refused enqueues (nothing is written: fleet.sh counts the jobs). */
  parts[0].witness_path = wtns;
  parts[0].witness_bytes = bytes;
  parts[0].witness_size = size;
  job = job_of(key, parts, 1);
  check(zkp_queue_enqueue(q, &job, &id, &err) == ZKP_ERR_INVALID_ARGUMENT && strstr(err.message, "exactly one") != NULL,
        "a partition with both a path and bytes: ZKP_ERR_INVALID_ARGUMENT", &err);
  parts[0].witness_bytes = NULL;
  parts[0].witness_size = 0;
  job = job_of("/nonexistent/circuit.zkey", parts, 1);
  check(zkp_queue_enqueue(q, &job, &id, &err) == ZKP_ERR_NOT_FOUND, "a key that is no file: ZKP_ERR_NOT_FOUND", &err);
  job = job_of(key, parts, 1);
  job.curve = 9;
  check(zkp_queue_enqueue(q, &job, &id, &err) == ZKP_ERR_INVALID_ARGUMENT, "curve 9: ZKP_ERR_INVALID_ARGUMENT", &err);
  job = job_of(key, parts, 0);
  check(zkp_queue_enqueue(q, &job, &id, &err) == ZKP_ERR_INVALID_ARGUMENT, "no partitions: ZKP_ERR_INVALID_ARGUMENT", &err);
  job = job_of(key, parts, 1);
  job.header.struct_size = 8;
  check(zkp_queue_enqueue(q, &job, &id, &err) == ZKP_ERR_ABI_MISMATCH, "a job struct_size of 8: ZKP_ERR_ABI_MISMATCH", &err);
  job = job_of(key, parts, 1);
  job.max_attempts = -1;
  check(zkp_queue_enqueue(q, &job, &id, &err) == ZKP_ERR_INVALID_ARGUMENT, "max_attempts -1: ZKP_ERR_INVALID_ARGUMENT",
        &err);

  /* A: by path, by bytes, malformed bytes. */
  parts[1].witness_bytes = bytes;
  parts[1].witness_size = size;
  parts[2].witness_bytes = (const uint8_t *)"not a wtns file";
  parts[2].witness_size = 15;
  job = job_of(key, parts, 3);
  job.priority = 2;
  check(zkp_queue_enqueue(q, &job, &a, &err) == ZKP_OK && a != 0, "enqueue job A (3 partitions: path, bytes, malformed)", &err);
  job = job_of(key, parts, 1);
  job.gpu_index = 3;
  job.max_attempts = 7;
  check(zkp_queue_enqueue(q, &job, &b, &err) == ZKP_OK, "enqueue job B (gpu_index 3, max_attempts 7)", &err);
  {
    DECLARE(zkp_queue_partition_t, bls);
    bls.witness_path = bls_wtns;
    job = job_of(bls_key, &bls, 1);
    job.curve = ZKP_CURVE_BLS12_381;
    check(zkp_queue_enqueue(q, &job, &c, &err) == ZKP_OK, "enqueue job C (curve bls12_381)", &err);
  }
  job = job_of(key, parts, 1);
  job.gpu_index = 0;
  job.curve = ZKP_CURVE_BN254;
  /* As a caller built before max_attempts would send it: a struct that ends at partition_count
   * (its padding included), whatever lies past it; the store's default applies. */
  job.header.struct_size = (uint32_t)offsetof(zkp_queue_job_t, max_attempts);
  job.max_attempts = 12345;
  check(zkp_queue_enqueue(q, &job, &d, &err) == ZKP_OK,
        "enqueue job D (gpu_index 0, curve bn254) with a struct from before max_attempts", &err);

  check(zkp_queue_job_status(q, a, &st, &err) == ZKP_OK && st.job_id == a && st.done == 0 && st.partitions == 3 &&
            st.succeeded == 0 && st.priority == 2,
        "job A's status: open, 3 partitions, priority 2", &err);
  check(zkp_queue_wait(q, a, 300, &st, &err) == ZKP_ERR_TIMEOUT && st.done == 0,
        "waiting 300 ms on A with no worker: ZKP_ERR_TIMEOUT, not done", &err);
  check(zkp_queue_job_status(q, 999999, &st, &err) == ZKP_ERR_NOT_FOUND, "status of job 999999: ZKP_ERR_NOT_FOUND", &err);
  check(zkp_queue_wait(q, 999999, 100, NULL, &err) == ZKP_ERR_NOT_FOUND, "waiting on job 999999: ZKP_ERR_NOT_FOUND", &err);
  check(zkp_queue_result(q, a, 0, &res, &err) == ZKP_OK && res.written == 0, "A's partition 0 before any worker: no result yet", &err);

  touch(argv[5]);

  check(zkp_queue_wait(q, a, 90000, &st, &err) == ZKP_OK && st.done == 1 && st.succeeded == 2 && st.failed == 1,
        "wait for A: done, 2 succeeded, 1 failed", &err);
  for (i = 0; i < 2; i++) {
    char what[128];
    snprintf(what, sizeof what, "A's partition %u: ZKP_OK, a 256-byte proof, public inputs, snarkjs JSON written", i);
    check(zkp_queue_result(q, a, i, &res, &err) == ZKP_OK && res.written == 1 && res.status == ZKP_OK &&
              res.message[0] == '\0' && res.proof != NULL && res.proof_size == 256 && res.public_inputs != NULL &&
              res.public_size > 0 && res.public_size % 32 == 0 && strstr(res.proof_json, "pi_a") != NULL &&
              strcmp(res.worker, "c1") == 0 && write_text(argv[4], i, "proof.json", res.proof_json) &&
              write_text(argv[4], i, "public.json", res.public_json),
          what, &err);
  }
  check(zkp_queue_result(q, a, 2, &res, &err) == ZKP_OK && res.written == 1 && res.status == ZKP_ERR_BAD_INPUT &&
            res.message[0] != '\0' && res.proof == NULL && res.proof_size == 0 && res.proof_json[0] == '\0',
        "A's partition 2 (malformed): ZKP_ERR_BAD_INPUT with a message, no proof", &err);
  check(zkp_queue_result(q, a, 3, &res, &err) == ZKP_ERR_NOT_FOUND, "A's partition 3: ZKP_ERR_NOT_FOUND", &err);
  check(zkp_queue_wait(q, d, 60000, &st, &err) == ZKP_OK && st.succeeded == 1,
        "wait for D (gpu_index 0, bn254: the worker satisfies both): done", &err);
  check(zkp_queue_wait(q, b, 1500, &st, &err) == ZKP_ERR_TIMEOUT && st.leased == 0 && st.succeeded == 0,
        "B (gpu_index 3) after 1.5 s more: not done, never leased (the worker has 1 device)", &err);
  check(zkp_queue_wait(q, c, 200, &st, &err) == ZKP_ERR_TIMEOUT && st.leased == 0 && st.succeeded == 0,
        "C (curve bls12_381): not done, never leased (the worker declares bn254 only)", &err);
  if (argc == 8) {
    char ask[4096];
    snprintf(ask, sizeof ask, "%s.ask", argv[7]);
    touch(ask);
    check(wait_for_file(argv[7]), "the server was restarted under the open handle", &err);
    check(zkp_queue_job_status(q, a, &st, &err) == ZKP_OK && st.done == 1 && st.succeeded == 2,
          "the same handle after the restart: it connects again, job A is still done", &err);
  }
  zkp_queue_disconnect(q);
  free(bytes);
  printf("jobs %llu %llu %llu %llu\n", (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
         (unsigned long long)d);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
