/* client_capi_test — the C API of zkp_client.h against a real `zkpipe serve`, written in C99 as a
 * caller would; with_serve.sh starts the server and passes its addresses (ZKPIPE_CLIENT_*).
 *
 * Checks: bad arguments name the field (NULL options, a struct_size too small, token and
 * token_file both, an unreadable token file; a token, or a token file, holding a newline, a
 * control byte or a non-ASCII letter: invalid argument, never gRPC's abort); nothing listening -> ZKP_CLIENT_ERR_UNAVAILABLE;
 * TCP without the token or with a wrong one -> ZKP_CLIENT_ERR_UNAUTHENTICATED, with it -> serving;
 * load_key twice (one id, warm the second time); list_keys (the short-buffer count, then the key);
 * prove (one partition, ok, proof bytes and snarkjs JSON, written to ZKPIPE_CLIENT_OUT for
 * `zkpipe verify`); four threads proving at once on one connection; an unknown key -> not found;
 * a malformed witness -> bad input, naming it; submit + await; cancel and await of an unknown
 * job -> not found; status; unload_key, then again -> not found; a 1 ms call deadline -> timeout. Prints "ok"/"FAIL" lines;
 * exit 0 only if nothing failed. */
#define _POSIX_C_SOURCE 200809L
#include <zkpipe/zkp_client.h>

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4

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
    printf("FAIL  %s (last status %d %s: %s)\n", what, (int)err->status, zkp_client_status_name(err->status), err->message);
    failed++;
  }
}

static const char *env(const char *name) {
  const char *v = getenv(name);
  if (v == NULL || *v == '\0') {
    fprintf(stderr, "client_capi_test: %s is not set (run it through with_serve.sh)\n", name);
    exit(2);
  }
  return v;
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

static int write_text(const char *dir, const char *name, const char *text) {
  char path[4096];
  FILE *f;
  int ok;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "wb");
  if (f == NULL) return 0;
  ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok;
}

static zkp_status_t connect_to(const char *address, const char *token, const char *token_file, zkp_client_t **out,
                               zkp_error_t *err) {
  DECLARE(zkp_client_options_t, o);
  o.address = address;
  o.token = token;
  o.token_file = token_file;
  o.connect_timeout_ms = 5000;
  return zkp_client_connect(&o, out, err);
}

/* A token no call could carry (a newline, a control byte, a non-ASCII letter; issue 36), as
 * `token` or in the file `token_file`: connect refuses it, invalid argument, the message saying
 * `expect`. gRPC aborts the process on such a byte in a call's metadata: were it let through,
 * the Health call below would end this program with SIGABRT. */
static void bad_token(const char *tcp, const char *token, const char *token_file, const char *expect, const char *what) {
  DECLARE(zkp_error_t, err);
  zkp_client_t *c = NULL;
  uint32_t serving = 0;
  const zkp_status_t s = connect_to(tcp, token, token_file, &c, &err);
  if (s == ZKP_OK) (void)zkp_client_health(c, &serving, &err);
  zkp_client_close(c);
  check(s == ZKP_ERR_INVALID_ARGUMENT && strstr(err.message, expect) != NULL, what, &err);
}

/* One prove of `witness` on `key_id`: ok only if its one partition succeeded with a proof. */
static int prove_ok(zkp_client_t *c, uint64_t key_id, const unsigned char *witness, size_t size, zkp_error_t *err,
                    zkp_client_result_t **kept) {
  DECLARE(zkp_client_job_t, job);
  const uint8_t *witnesses[1];
  size_t sizes[1];
  zkp_client_result_t *r = NULL;
  const zkp_client_partition_t *p;
  int ok;
  witnesses[0] = witness;
  sizes[0] = size;
  job.key_id = key_id;
  job.witnesses = witnesses;
  job.witness_sizes = sizes;
  job.witness_count = 1;
  job.gpu_index = -1;
  if (zkp_client_prove(c, &job, &r, err) != ZKP_OK) return 0;
  p = zkp_client_result_partition(r, 0);
  ok = zkp_client_result_count(r) == 1 && p != NULL && p->status == ZKP_OK && p->proof != NULL && p->proof_size > 0 &&
       p->public_inputs_size > 0 && strstr(p->proof_json, "pi_a") != NULL && p->public_json[0] == '[' &&
       p->message[0] == '\0' && p->curve == ZKP_CURVE_BN254 && p->gpu_index >= 0 && zkp_client_result_job_id(r) != 0 &&
       zkp_client_result_partition(r, 1) == NULL;
  if (kept != NULL && ok) {
    *kept = r;
  } else {
    zkp_client_result_free(r);
  }
  return ok;
}

struct worker {
  zkp_client_t *client;
  uint64_t key_id;
  const unsigned char *witness;
  size_t size;
  int ok;
  zkp_error_t err;
};

static void *prove_thread(void *arg) {
  struct worker *w = (struct worker *)arg;
  w->ok = prove_ok(w->client, w->key_id, w->witness, w->size, &w->err, NULL);
  return NULL;
}

int main(void) {
  const char *socket = env("ZKPIPE_CLIENT_SOCKET");
  const char *tcp = env("ZKPIPE_CLIENT_TCP");
  const char *token_file = env("ZKPIPE_CLIENT_TOKEN_FILE");
  const char *key_path = env("ZKPIPE_CLIENT_KEY");
  const char *out_dir = env("ZKPIPE_CLIENT_OUT");
  char nothing[4096];
  DECLARE(zkp_error_t, err);
  DECLARE(zkp_client_options_t, options);
  DECLARE(zkp_client_key_t, key);
  DECLARE(zkp_client_key_t, again);
  DECLARE(zkp_client_status_t, status);
  zkp_client_key_t keys[4];
  zkp_client_t *c = NULL, *other = NULL;
  zkp_client_result_t *result = NULL;
  size_t witness_size = 0, count = 0, i;
  unsigned char *witness = read_file(env("ZKPIPE_CLIENT_WITNESS"), &witness_size);
  uint32_t serving = 0;
  uint64_t job_id = 0;
  struct worker workers[THREADS];
  pthread_t threads[THREADS];
  int all_ok;

  if (witness == NULL) {
    fprintf(stderr, "client_capi_test: cannot read the witness\n");
    return 2;
  }

  /* Bad arguments, before any server. */
  check(zkp_client_connect(NULL, &c, &err) == ZKP_ERR_INVALID_ARGUMENT && strstr(err.message, "zkp_client_options_t") &&
            c == NULL,
        "NULL options: invalid argument, naming them", &err);
  options.header.struct_size = 8;
  check(zkp_client_connect(&options, &c, &err) == ZKP_ERR_ABI_MISMATCH && c == NULL, "struct_size 8: ABI mismatch", &err);
  check(connect_to(socket, "t", token_file, &c, &err) == ZKP_ERR_INVALID_ARGUMENT && strstr(err.message, "token_file") &&
            c == NULL,
        "token and token_file both: invalid argument, naming token_file", &err);
  check(connect_to(socket, NULL, "/nonexistent/token", &c, &err) == ZKP_ERR_NOT_FOUND &&
            strstr(err.message, "/nonexistent/token") && c == NULL,
        "an unreadable token file: not found, naming it", &err);

  bad_token(tcp, "ab\ncd", NULL, "byte 3 of 5 is a newline", "a token with a newline: invalid argument, saying so");
  bad_token(tcp, "ab\001cd", NULL, "the control byte 0x01", "a token with a control byte: invalid argument, saying so");
  bad_token(tcp, "t\303\266ken", NULL, "0xc3, not ASCII", "a token with a non-ASCII letter: invalid argument, saying so");
  if (write_text(out_dir, "two_line_token", "first\nsecond\n")) {
    char two_lines[4096];
    snprintf(two_lines, sizeof two_lines, "%s/two_line_token", out_dir);
    bad_token(tcp, NULL, two_lines, "two_line_token' holds no usable token: byte 6 of 12 is a newline",
              "a token file with two lines: invalid argument, naming the file");
    remove(two_lines);
  } else {
    check(0, "write the two-line token file", &err);
  }

  /* Nothing listening. */
  snprintf(nothing, sizeof nothing, "unix:%s/nothing.sock", out_dir);
  options.header.struct_size = sizeof options;
  options.address = nothing;
  options.connect_timeout_ms = 300;
  check(zkp_client_connect(&options, &c, &err) == ZKP_CLIENT_ERR_UNAVAILABLE && strstr(err.message, "no zkpipe serve answers") &&
            strstr(err.message, "nothing.sock") && c == NULL,
        "nothing listening: unavailable, naming the address", &err);
  check(strcmp(zkp_client_status_name(ZKP_CLIENT_ERR_UNAVAILABLE), "unavailable") == 0 &&
            strcmp(zkp_client_status_name(ZKP_ERR_NOT_FOUND), "not found") == 0,
        "zkp_client_status_name knows the client's statuses and the common ones", &err);

  /* TCP: the token. */
  if (connect_to(tcp, NULL, NULL, &other, &err) == ZKP_OK) {
    check(zkp_client_health(other, &serving, &err) == ZKP_CLIENT_ERR_UNAUTHENTICATED && strstr(err.message, "Health: UNAUTHENTICATED"),
          "TCP without the token: unauthenticated", &err);
    zkp_client_close(other);
  } else {
    check(0, "TCP connect", &err);
  }
  if (connect_to(tcp, "not-the-token", NULL, &other, &err) == ZKP_OK) {
    check(zkp_client_health(other, &serving, &err) == ZKP_CLIENT_ERR_UNAUTHENTICATED, "TCP with a wrong token: unauthenticated", &err);
    zkp_client_close(other);
  } else {
    check(0, "TCP connect (wrong token)", &err);
  }
  serving = 0;
  if (connect_to(tcp, NULL, token_file, &other, &err) == ZKP_OK) {
    check(zkp_client_health(other, &serving, &err) == ZKP_OK && serving == 1, "TCP with the token file: serving", &err);
    zkp_client_close(other);
  } else {
    check(0, "TCP connect (token file)", &err);
  }

  /* The unix socket: keys, proofs, jobs. */
  if (connect_to(socket, NULL, NULL, &c, &err) != ZKP_OK) {
    check(0, "connect to the unix socket", &err);
    return 1;
  }
  check(zkp_client_load_key(c, key_path, ZKP_KEY_FORMAT_ZKEY, &key, &err) == ZKP_OK && key.key_id != 0 &&
            key.curve == ZKP_CURVE_BN254 && key.n_public > 0 && key.already_loaded == 0,
        "load_key: a bn254 key with public inputs", &err);
  check(zkp_client_load_key(c, key_path, ZKP_KEY_FORMAT_ZKEY, &again, &err) == ZKP_OK && again.key_id == key.key_id &&
            again.already_loaded == 1,
        "load_key again: the same id, warm", &err);
  {
    /* A caller built against the first release's zkp_client_key_t (it ended at reserved):
     * loaded as before, and nothing past its struct_size written. */
    zkp_client_key_t old_key;
    memset(&old_key, 0xab, sizeof old_key);
    old_key.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_client_key_t);
    old_key.header.struct_size = (uint32_t)offsetof(zkp_client_key_t, device_bytes);
    check(zkp_client_load_key(c, key_path, ZKP_KEY_FORMAT_ZKEY, &old_key, &err) == ZKP_OK && old_key.key_id == key.key_id &&
              old_key.device_bytes == 0xababababababababull,
          "load_key into the first release's struct: the key, device_bytes (past its size) untouched", &err);
    old_key.header.struct_size = (uint32_t)offsetof(zkp_client_key_t, reserved);
    check(zkp_client_load_key(c, key_path, ZKP_KEY_FORMAT_ZKEY, &old_key, &err) == ZKP_ERR_ABI_MISMATCH,
          "load_key into a struct shorter than the first release's: ABI mismatch", &err);
  }
  {
    /* list_keys into an array of the first release's structs: its stride, not today's. */
    enum { kOldSize = offsetof(zkp_client_key_t, device_bytes) };
    uint64_t old_words[2 * kOldSize / 8]; /* 8-byte aligned, as the structs are */
    unsigned char *old_keys = (unsigned char *)old_words;
    size_t n = 0;
    memset(old_keys, 0xab, sizeof old_words);
    for (i = 0; i < 2; ++i) {
      zkp_struct_header_t h = ZKP_HEADER_INIT(zkp_client_key_t);
      h.struct_size = kOldSize;
      memcpy(old_keys + i * kOldSize, &h, sizeof h);
    }
    uint64_t first_id = 0;
    check(zkp_client_list_keys(c, (zkp_client_key_t *)old_keys, 2, &n, &err) == ZKP_OK && n == 1,
          "list_keys into the first release's structs: one key", &err);
    memcpy(&first_id, old_keys + offsetof(zkp_client_key_t, key_id), sizeof first_id);
    check(first_id == key.key_id && old_keys[kOldSize + offsetof(zkp_client_key_t, key_id)] == 0xab,
          "list_keys wrote the key at the old stride and nothing past it", &err);
  }
  char missing[4096];
  snprintf(missing, sizeof missing, "%s.missing", key_path);  /* inside serve.key_dirs */
  check(zkp_client_load_key(c, missing, ZKP_KEY_FORMAT_ZKEY, &again, &err) == ZKP_ERR_NOT_FOUND &&
            strstr(err.message, "LoadKey: NOT_FOUND") && again.key_id == key.key_id,
        "load_key of a missing file: not found, the output untouched", &err);
  check(zkp_client_load_key(c, "/etc/passwd", ZKP_KEY_FORMAT_ZKEY, &again, &err) == ZKP_ERR_INVALID_ARGUMENT &&
            strstr(err.message, "is not inside serve.key_dirs") && again.key_id == key.key_id,
        "load_key of a file outside serve.key_dirs: refused, the output untouched", &err);
  check(zkp_client_list_keys(c, NULL, 0, &count, &err) == ZKP_ERR_SHORT_BUFFER && count == 1,
        "list_keys with no room: short buffer, count 1", &err);
  for (i = 0; i < 4; ++i) {
    memset(&keys[i], 0, sizeof keys[i]);
    keys[i].header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_client_key_t);
  }
  check(zkp_client_list_keys(c, keys, 4, &count, &err) == ZKP_OK && count == 1 && keys[0].key_id == key.key_id &&
            keys[0].n_vars == key.n_vars,
        "list_keys: the loaded key", &err);

  all_ok = prove_ok(c, key.key_id, witness, witness_size, &err, &result);
  check(all_ok, "prove: one partition, ok, with proof bytes and snarkjs JSON", &err);
  if (all_ok) {
    const zkp_client_partition_t *p = zkp_client_result_partition(result, 0);
    check(write_text(out_dir, "proof.json", p->proof_json) && write_text(out_dir, "public.json", p->public_json),
          "the proof written for zkpipe verify", &err);
    zkp_client_result_free(result);
  }

  for (i = 0; i < THREADS; ++i) {
    workers[i].client = c;
    workers[i].key_id = key.key_id;
    workers[i].witness = witness;
    workers[i].size = witness_size;
    workers[i].ok = 0;
    memset(&workers[i].err, 0, sizeof workers[i].err);
    workers[i].err.header = (zkp_struct_header_t)ZKP_HEADER_INIT(zkp_error_t);
    if (pthread_create(&threads[i], NULL, prove_thread, &workers[i]) != 0) workers[i].ok = -1;
  }
  all_ok = 1;
  for (i = 0; i < THREADS; ++i) {
    if (workers[i].ok != -1) pthread_join(threads[i], NULL);
    if (workers[i].ok != 1) {
      all_ok = 0;
      err = workers[i].err;
    }
  }
  check(all_ok, "4 threads prove at once on one connection: every proof ok", &err);

  check(!prove_ok(c, key.key_id + 1000, witness, witness_size, &err, NULL) && err.status == ZKP_ERR_NOT_FOUND &&
            strstr(err.message, "Prove: NOT_FOUND"),
        "prove with an unknown key: not found", &err);
  {
    DECLARE(zkp_client_job_t, job);
    const uint8_t *witnesses[1];
    size_t sizes[1];
    const uint8_t garbage[] = "not a witness";
    zkp_status_t s;
    witnesses[0] = garbage;
    sizes[0] = sizeof garbage;
    job.key_id = key.key_id;
    job.witnesses = witnesses;
    job.witness_sizes = sizes;
    job.witness_count = 1;
    job.gpu_index = -1;
    result = NULL;
    s = zkp_client_prove(c, &job, &result, &err);
    /* The job was made and its partition failed: the call succeeds with the partition's
     * status (Prove's failure, then Await of the job it names). */
    check((s == ZKP_OK && zkp_client_result_count(result) == 1 &&
               zkp_client_result_partition(result, 0)->status == ZKP_ERR_BAD_INPUT &&
               zkp_client_result_partition(result, 0)->message[0] != '\0' &&
               zkp_client_result_partition(result, 0)->proof == NULL),
          "prove with a malformed witness: ok, its partition bad input, with a message", &err);
    zkp_client_result_free(result);
    job.witness_count = 0;
    check(zkp_client_submit(c, &job, &job_id, &err) == ZKP_ERR_INVALID_ARGUMENT && strstr(err.message, "witness_count"),
          "submit with no witness: invalid argument, naming witness_count", &err);
    witnesses[0] = witness;
    sizes[0] = witness_size;
    job.witness_count = 1;
    result = NULL;
    check(zkp_client_submit(c, &job, &job_id, &err) == ZKP_OK && job_id != 0 &&
              zkp_client_await(c, job_id, &result, &err) == ZKP_OK && zkp_client_result_job_id(result) == job_id &&
              zkp_client_result_count(result) == 1 && zkp_client_result_partition(result, 0)->status == ZKP_OK,
          "submit + await: the job's one partition, ok", &err);
    zkp_client_result_free(result);
    /* A caller built before flags (struct_size ending at priority) proves as before. */
    job.header.struct_size = (uint32_t)offsetof(zkp_client_job_t, flags);
    result = NULL;
    check(zkp_client_prove(c, &job, &result, &err) == ZKP_OK && zkp_client_result_partition(result, 0)->status == ZKP_OK,
          "prove with the first release's zkp_client_job_t: ok", &err);
    zkp_client_result_free(result);
    job.header.struct_size = sizeof job;
    /* Inputs (ZKP_CLIENT_JOB_INPUTS) for a key loaded without a witness generator: refused,
     * saying so; unknown flag bits: refused before any call. */
    job.flags = ZKP_CLIENT_JOB_INPUTS;
    result = NULL;
    check(zkp_client_prove(c, &job, &result, &err) == ZKP_ERR_INVALID_ARGUMENT && strstr(err.message, "has no witness generator"),
          "inputs for a key without a generator: invalid argument, saying so", &err);
    zkp_client_result_free(result);
    job.flags = 8;
    check(zkp_client_submit(c, &job, &job_id, &err) == ZKP_ERR_INVALID_ARGUMENT && strstr(err.message, "flags"),
          "unknown job flags: invalid argument, naming flags", &err);
    job.flags = 0;
    check(zkp_client_load_key_with_generator(c, key_path, ZKP_KEY_FORMAT_ZKEY, "/tmp/any.witness.so", &again, &err) ==
                  ZKP_ERR_INVALID_ARGUMENT &&
              strstr(err.message, "loads no witness generators"),
          "load_key_with_generator on a server without serve.generator_dirs: invalid argument, saying so", &err);
  }
  {
    /* Past 1 MiB of witnesses the library sends the job by SubmitStream (prove: then Await):
     * as many copies of the witness as that takes, every partition proved, in order. */
    const size_t n = (size_t)(1u << 20) / witness_size + 2;
    const uint8_t **many = calloc(n, sizeof *many);
    size_t *many_sizes = calloc(n, sizeof *many_sizes);
    uint8_t *zeros = calloc(2u << 20, 1);
    DECLARE(zkp_client_job_t, job);
    size_t proved = 0;
    for (i = 0; i < n; ++i) {
      many[i] = witness;
      many_sizes[i] = witness_size;
    }
    job.key_id = key.key_id;
    job.witnesses = many;
    job.witness_sizes = many_sizes;
    job.witness_count = n;
    job.gpu_index = -1;
    result = NULL;
    if (zkp_client_prove(c, &job, &result, &err) == ZKP_OK) {
      for (i = 0; i < zkp_client_result_count(result); ++i) {
        const zkp_client_partition_t *p = zkp_client_result_partition(result, i);
        if (p->status == ZKP_OK && p->partition == i && p->proof != NULL) ++proved;
      }
    }
    check(proved == n, "prove of a job past 1 MiB (SubmitStream + Await): every partition proved, in order", &err);
    zkp_client_result_free(result);
    many[0] = zeros;
    many_sizes[0] = 2u << 20;
    job.witness_count = 1;
    result = NULL;
    check(zkp_client_prove(c, &job, &result, &err) == ZKP_OK && zkp_client_result_count(result) == 1 &&
              zkp_client_result_partition(result, 0)->status == ZKP_ERR_BAD_INPUT,
          "prove of 2 MiB of zeros (SubmitStream): ok, its partition bad input", &err);
    zkp_client_result_free(result);
    free(zeros);
    free(many_sizes);
    free(many);
  }
  check(zkp_client_cancel(c, job_id + 1000, &err) == ZKP_ERR_NOT_FOUND, "cancel of an unknown job: not found", &err);
  result = NULL;
  check(zkp_client_await(c, job_id + 1000, &result, &err) == ZKP_ERR_NOT_FOUND && result == NULL,
        "await of an unknown job: not found", &err);
  check(zkp_client_status(c, &status, &err) == ZKP_OK && strcmp(status.prover, "cpu") == 0 && status.simulated == 0 &&
            status.keys_loaded == 1 && status.jobs_submitted >= 2 + THREADS && status.partitions_succeeded >= 2 + THREADS &&
            status.version[0] != '\0',
        "status: the cpu prover, one key, the jobs counted", &err);
  check(zkp_client_unload_key(c, key.key_id, &err) == ZKP_OK, "unload_key", &err);
  check(zkp_client_unload_key(c, key.key_id, &err) == ZKP_ERR_NOT_FOUND, "unload_key again: not found", &err);
  check(zkp_client_health(NULL, &serving, &err) == ZKP_ERR_INVALID_ARGUMENT, "a NULL client: invalid argument", &err);
  /* A deadline shorter than any proof (the cpu prover takes tens of ms on this vector); last,
   * since the job it gave up on runs on (giving up cancels nothing) and holds its key. */
  options.address = socket;
  options.connect_timeout_ms = 5000;
  options.call_timeout_ms = 1;
  if (zkp_client_load_key(c, key_path, ZKP_KEY_FORMAT_ZKEY, &key, &err) == ZKP_OK &&
      zkp_client_connect(&options, &other, &err) == ZKP_OK) {
    check(!prove_ok(other, key.key_id, witness, witness_size, &err, NULL) && err.status == ZKP_ERR_TIMEOUT &&
              strstr(err.message, "Prove: DEADLINE_EXCEEDED"),
          "call_timeout_ms 1: a prove times out", &err);
    zkp_client_close(other);
  } else {
    check(0, "load the key again, connect with call_timeout_ms", &err);
  }
  zkp_client_close(c);
  zkp_client_close(NULL);
  free(witness);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
