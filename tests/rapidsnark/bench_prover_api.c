/*
 * bench_prover_api: proof times through rapidsnark's C API (src/prover.h), written against that
 * API alone so the same source builds against zkpipe's librapidsnark and against rapidsnark
 * itself (built from its source beside zkpipe; docs/PERF.md says how). A benchmark, not a test.
 *
 *   bench_prover_api ZKEY WTNS [REPS] [THREADS]
 *
 * Loads the key once (groth16_prover_create over the file's bytes, kept until the prover is
 * destroyed: rapidsnark's groth16_prover_create_zkey_file, at iden3/rapidsnark 81eddf1, returns a
 * prover that still points into the file it has already unmapped, and its first proof crashes),
 * then proves the witness REPS times
 * (default 5) from THREADS threads at once (default 1; each thread proves REPS times on the
 * same prover object), and prints one line: key load ms, then the median and minimum proof ms
 * (per thread's proof, wall) and the throughput in proofs/s.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prover.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static unsigned char *read_file(const char *path, unsigned long long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)n);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = (unsigned long long)n;
  return buf;
}

struct job {
  void *prover;
  const unsigned char *wtns;
  unsigned long long wtns_size;
  int reps;
  double *ms;  /* reps entries */
  int failed;
};

static void *prove_loop(void *arg) {
  struct job *j = arg;
  char proof[4096], pub[1 << 16], err[256];
  for (int r = 0; r < j->reps; ++r) {
    unsigned long long proof_size = sizeof proof, pub_size = sizeof pub;
    const double t0 = now_ms();
    const int rc = groth16_prover_prove(j->prover, j->wtns, j->wtns_size, proof, &proof_size, pub, &pub_size, err,
                                        sizeof err);
    j->ms[r] = now_ms() - t0;
    if (rc != PROVER_OK) {
      fprintf(stderr, "prove: code %d: %s\n", rc, err);
      j->failed = 1;
      return NULL;
    }
  }
  return NULL;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s ZKEY WTNS [REPS] [THREADS]\n", argv[0]);
    return 2;
  }
  const int reps = argc > 3 ? atoi(argv[3]) : 5;
  const int threads = argc > 4 ? atoi(argv[4]) : 1;
  if (reps < 1 || threads < 1 || threads > 256) {
    fprintf(stderr, "REPS and THREADS must be positive (THREADS at most 256)\n");
    return 2;
  }
  unsigned long long wtns_size = 0;
  unsigned char *wtns = read_file(argv[2], &wtns_size);
  if (!wtns) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 1;
  }
  char err[256];
  void *prover = NULL;
  const double t0 = now_ms();
  unsigned long long zkey_size = 0;
  unsigned char *zkey = read_file(argv[1], &zkey_size);
  if (!zkey) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  if (groth16_prover_create(&prover, zkey, zkey_size, err, sizeof err) != PROVER_OK) {
    fprintf(stderr, "create: %s\n", err);
    return 1;
  }
  const double load_ms = now_ms() - t0;
  struct job jobs[256];
  pthread_t tid[256];
  double *ms = calloc((size_t)reps * (size_t)threads, sizeof(double));
  const double w0 = now_ms();
  /* rapidsnark's prover keeps large arrays on the stack of the calling thread (its MSM crashes
     in a thread with the default 8 MiB), so the threads get 256 MiB of stack each. */
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)256 << 20);
  for (int t = 0; t < threads; ++t) {
    jobs[t] = (struct job){prover, wtns, wtns_size, reps, ms + (size_t)t * (size_t)reps, 0};
    pthread_create(&tid[t], &attr, prove_loop, &jobs[t]);
  }
  pthread_attr_destroy(&attr);
  int failed = 0;
  for (int t = 0; t < threads; ++t) {
    pthread_join(tid[t], NULL);
    failed |= jobs[t].failed;
  }
  const double wall = now_ms() - w0;
  groth16_prover_destroy(prover);
  free(zkey);
  if (failed) return 1;
  const size_t n = (size_t)reps * (size_t)threads;
  qsort(ms, n, sizeof(double), cmp_double);
  printf("key_load_ms %.1f proof_ms_median %.1f proof_ms_min %.1f proofs %zu threads %d proofs_per_s %.2f\n", load_ms,
         ms[n / 2], ms[0], n, threads, (double)n * 1e3 / wall);
  free(ms);
  free(wtns);
  return 0;
}
