/* api_test VECTOR OTHER OUT — librapidsnark through rapidsnark's headers alone, as a rapidsnark
 * caller uses them, on one committed vector (VECTOR/circuit.zkey, witness.wtns, public.json,
 * vkey.json). OTHER is a vector of the same curve with another wire count. Writes OUT/proof.json
 * and OUT/public.json (one proof, for snarkjs to judge) and prints one line per check.
 *
 *   - the size functions: groth16_proof_size, groth16_public_size_for_zkey_buf/_file agree and
 *     are rapidsnark's nPublic * 82 + 4;
 *   - groth16_prover_create, then prove with empty buffers: PROVER_ERROR_SHORT_BUFFER with the
 *     sizes, then the real call with them succeeds, and public signals equal snarkjs's;
 *   - a witness with another wire count: PROVER_INVALID_WITNESS_LENGTH; a truncated witness:
 *     PROVER_ERROR; a missing zkey file: PROVER_ERROR from every function that takes a path;
 *     an error message truncated to its buffer, NUL-terminated;
 *   - 16 threads proving with one prover object at once, every proof checked by groth16_verify;
 *   - groth16_verify: a tampered proof is VERIFIER_INVALID_PROOF, malformed JSON VERIFIER_ERROR;
 *   - the one-shot groth16_prover and groth16_prover_zkey_file.
 * Exit 0 when every check passed. */
#include <prover.h>
#include <verifier.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 16, kErrorSize = 1024 };

static int failures = 0;

static void check(int ok, const char *what, const char *detail) {
  printf("%s  %s%s%s\n", ok ? "ok  " : "FAIL", what, detail && *detail ? ": " : "", detail ? detail : "");
  if (!ok) failures++;
}

typedef struct {
  char *data;
  size_t size;
} bytes_t;

static bytes_t read_file(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  bytes_t b = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  b.size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  b.data = malloc(b.size + 1);
  if (b.data == NULL || fread(b.data, 1, b.size, f) != b.size) exit(2);
  b.data[b.size] = '\0';
  fclose(f);
  return b;
}

static void write_file(const char *dir, const char *name, const char *text) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) exit(2);
}

/* snarkjs's public.json without its whitespace: rapidsnark's compact layout of the same list. */
static char *compact(const char *text) {
  char *out = malloc(strlen(text) + 1), *o = out;
  for (const char *p = text; *p; ++p) {
    if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') *o++ = *p;
  }
  *o = '\0';
  return out;
}

static int ends_with(const char *text, const char *suffix) {
  const size_t n = strlen(text), m = strlen(suffix);
  return n >= m && strcmp(text + n - m, suffix) == 0;
}

static unsigned long long count_signals(const char *public_json) {
  unsigned long long quotes = 0;
  for (const char *p = public_json; *p; ++p) quotes += *p == '"';
  return quotes / 2;
}

typedef struct {
  void *prover;
  const bytes_t *wtns;
  const char *vkey;
  int proved, verified;
  char error[kErrorSize];
} worker_t;

static void *prove_and_verify(void *arg) {
  worker_t *w = arg;
  unsigned long long proof_size = 0, public_size = 0;
  groth16_proof_size(&proof_size);
  public_size = 1 << 16;
  char *proof = malloc(proof_size), *pub = malloc(public_size);
  w->proved = groth16_prover_prove(w->prover, w->wtns->data, w->wtns->size, proof, &proof_size, pub, &public_size,
                                   w->error, sizeof w->error) == PROVER_OK;
  if (w->proved) w->verified = groth16_verify(proof, pub, w->vkey, w->error, sizeof w->error) == VERIFIER_VALID_PROOF;
  free(proof);
  free(pub);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: api_test VECTOR OTHER_VECTOR_SAME_CURVE OUT\n");
    return 2;
  }
  const char *dir = argv[1], *other = argv[2], *out = argv[3];
  char zkey_path[4096], error[kErrorSize], detail[2 * kErrorSize];
  snprintf(zkey_path, sizeof zkey_path, "%s/circuit.zkey", dir);
  bytes_t zkey = read_file(dir, "circuit.zkey"), wtns = read_file(dir, "witness.wtns");
  bytes_t other_wtns = read_file(other, "witness.wtns");
  bytes_t snarkjs_public = read_file(dir, "public.json"), vkey = read_file(dir, "vkey.json");

  /* Sizes, as rapidsnark's prover program takes them. */
  unsigned long long proof_cap = 0, public_buf = 0, public_file = 0;
  groth16_proof_size(&proof_cap);
  const int buf_rc = groth16_public_size_for_zkey_buf(zkey.data, zkey.size, &public_buf, error, sizeof error);
  const int file_rc = groth16_public_size_for_zkey_file(zkey_path, &public_file, error, sizeof error);
  const unsigned long long n_public = count_signals(snarkjs_public.data);
  snprintf(detail, sizeof detail, "proof %llu, public %llu / %llu for %llu signals", proof_cap, public_buf, public_file,
           n_public);
  check(buf_rc == PROVER_OK && file_rc == PROVER_OK && public_buf == public_file && public_buf == n_public * 82 + 4,
        "size functions", detail);

  /* One prover object, sized by SHORT_BUFFER, then the real call. */
  void *prover = NULL;
  int rc = groth16_prover_create(&prover, zkey.data, zkey.size, error, sizeof error);
  check(rc == PROVER_OK && prover != NULL, "groth16_prover_create", rc == PROVER_OK ? "" : error);
  if (prover == NULL) return 1;
  char tiny_proof[1], tiny_public[1];
  unsigned long long proof_size = 0, public_size = 0;
  rc = groth16_prover_prove(prover, wtns.data, wtns.size, tiny_proof, &proof_size, tiny_public, &public_size, error,
                            sizeof error);
  check(rc == PROVER_ERROR_SHORT_BUFFER && proof_size > 0 && public_size > 0, "empty buffers: PROVER_ERROR_SHORT_BUFFER",
        error);
  char *proof = malloc(proof_size), *pub = malloc(public_size);
  const unsigned long long proof_given = proof_size, public_given = public_size;
  rc = groth16_prover_prove(prover, wtns.data, wtns.size, proof, &proof_size, pub, &public_size, error, sizeof error);
  snprintf(detail, sizeof detail, "%s; %llu and %llu bytes in buffers of %llu and %llu", rc == PROVER_OK ? "" : error,
           proof_size, public_size, proof_given, public_given);
  check(rc == PROVER_OK && proof_size == strlen(proof) && public_size == strlen(pub), "prove with the reported sizes",
        detail);
  char *expected_public = compact(snarkjs_public.data);
  check(rc == PROVER_OK && strcmp(pub, expected_public) == 0, "public signals are snarkjs's, compact", pub);
  check(rc == PROVER_OK && strncmp(proof, "{\"pi_a\":[\"", 10) == 0 && strstr(proof, "\"curve\"") == NULL &&
            ends_with(proof, ",\"protocol\":\"groth16\"}"),
        "proof in rapidsnark's layout", "");
  check(groth16_verify(proof, pub, vkey.data, error, sizeof error) == VERIFIER_VALID_PROOF, "groth16_verify accepts it",
        "");
  write_file(out, "proof.json", proof);
  write_file(out, "public.json", pub);

  /* Tampered and malformed inputs to the verifier. */
  char *tampered = strdup(proof);
  char *digit = strchr(tampered + strlen("{\"pi_a\":[\""), '"') - 1; /* A.x's last digit, moved by one */
  *digit = *digit == '0' ? '1' : (char)(*digit - 1);
  check(groth16_verify(tampered, pub, vkey.data, error, sizeof error) == VERIFIER_INVALID_PROOF,
        "a tampered proof: VERIFIER_INVALID_PROOF", "");
  rc = groth16_verify("{\"pi_a\":", pub, vkey.data, error, sizeof error);
  check(rc == VERIFIER_ERROR && error[0] != '\0', "malformed proof JSON: VERIFIER_ERROR", error);
  rc = groth16_verify(proof, "[\"1\"", vkey.data, error, sizeof error);
  check(rc == VERIFIER_ERROR, "malformed inputs JSON: VERIFIER_ERROR", error);

  /* Witnesses that are not this key's. */
  proof_size = proof_given;
  public_size = public_given;
  rc = groth16_prover_prove(prover, other_wtns.data, other_wtns.size, proof, &proof_size, pub, &public_size, error,
                            sizeof error);
  check(rc == PROVER_INVALID_WITNESS_LENGTH, "another circuit's witness: PROVER_INVALID_WITNESS_LENGTH", error);
  rc = groth16_prover_prove(prover, wtns.data, wtns.size / 2, proof, &proof_size, pub, &public_size, error,
                            sizeof error);
  check(rc == PROVER_ERROR, "a truncated witness: PROVER_ERROR", error);
  char small[8];
  memset(small, 'x', sizeof small);
  rc = groth16_prover_prove(prover, other_wtns.data, other_wtns.size, proof, &proof_size, pub, &public_size, small,
                            sizeof small);
  check(rc == PROVER_INVALID_WITNESS_LENGTH && strlen(small) == sizeof small - 1, "an error message truncated to 8 bytes",
        small);

  /* 16 threads, one prover object, every proof verified. */
  pthread_t threads[kThreads];
  worker_t workers[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    workers[i] = (worker_t){prover, &wtns, vkey.data, 0, 0, ""};
    pthread_create(&threads[i], NULL, prove_and_verify, &workers[i]);
  }
  int proved = 0, verified = 0;
  for (int i = 0; i < kThreads; ++i) {
    pthread_join(threads[i], NULL);
    proved += workers[i].proved;
    verified += workers[i].verified;
    if (!workers[i].verified) fprintf(stderr, "thread %d: %s\n", i, workers[i].error);
  }
  snprintf(detail, sizeof detail, "%d proved, %d verified", proved, verified);
  check(verified == kThreads, "16 threads on one prover object", detail);
  groth16_prover_destroy(prover);
  groth16_prover_destroy(NULL);

  /* Missing files. */
  void *none = NULL;
  rc = groth16_prover_create_zkey_file(&none, "/nonexistent/circuit.zkey", error, sizeof error);
  check(rc == PROVER_ERROR && none == NULL, "groth16_prover_create_zkey_file on a missing file: PROVER_ERROR", error);
  rc = groth16_public_size_for_zkey_file("/nonexistent/circuit.zkey", &public_file, error, sizeof error);
  check(rc == PROVER_ERROR, "groth16_public_size_for_zkey_file on a missing file: PROVER_ERROR", error);
  proof_size = proof_given;
  public_size = public_given;
  rc = groth16_prover_zkey_file("/nonexistent/circuit.zkey", wtns.data, wtns.size, proof, &proof_size, pub,
                                &public_size, error, sizeof error);
  check(rc == PROVER_ERROR, "groth16_prover_zkey_file on a missing file: PROVER_ERROR", error);

  /* The one-shot functions, sized as rapidsnark's prover program sizes them. */
  proof_size = proof_cap;
  public_size = public_buf;
  char *proof2 = malloc(proof_size), *pub2 = malloc(public_size);
  rc = groth16_prover(zkey.data, zkey.size, wtns.data, wtns.size, proof2, &proof_size, pub2, &public_size, error,
                      sizeof error);
  check(rc == PROVER_OK && groth16_verify(proof2, pub2, vkey.data, error, sizeof error) == VERIFIER_VALID_PROOF,
        "groth16_prover", rc == PROVER_OK ? "" : error);
  proof_size = proof_cap;
  public_size = public_buf;
  rc = groth16_prover_zkey_file(zkey_path, wtns.data, wtns.size, proof2, &proof_size, pub2, &public_size, error,
                                sizeof error);
  check(rc == PROVER_OK && groth16_verify(proof2, pub2, vkey.data, error, sizeof error) == VERIFIER_VALID_PROOF,
        "groth16_prover_zkey_file", rc == PROVER_OK ? "" : error);
  rc = groth16_prover_create_zkey_file(&none, zkey_path, error, sizeof error);
  check(rc == PROVER_OK, "groth16_prover_create_zkey_file", rc == PROVER_OK ? "" : error);
  groth16_prover_destroy(none);

  free(proof);
  free(pub);
  free(proof2);
  free(pub2);
  free(tampered);
  free(expected_public);
  free(zkey.data);
  free(wtns.data);
  free(other_wtns.data);
  free(snarkjs_public.data);
  free(vkey.data);
  printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}
