/* prover.h with ZKP_RAPIDSNARK_UNSIGNED_LONG_SIZES, for callers written against rapidsnark's
 * older header (sizes as unsigned long), as go-rapidsnark's cgo code is: the same calls with
 * unsigned long sizes compile as C99 with -pedantic-errors (a pointer of the other type would
 * not). The build is the test; the library is the same. */
#include <prover.h>

int zkp_rapidsnark_headers_ulong_check(void);

int zkp_rapidsnark_headers_ulong_check(void) {
  unsigned long proof_size = 0, public_size = 0;
  char error[16];
  void *prover = 0;
  groth16_proof_size(&proof_size);
  int rc = groth16_public_size_for_zkey_buf(0, 0UL, &public_size, error, (unsigned long)sizeof error);
  rc |= groth16_prover_create(&prover, 0, 0UL, error, (unsigned long)sizeof error);
  rc |= groth16_prover_prove(prover, 0, 0UL, error, &proof_size, error, &public_size, error, (unsigned long)sizeof error);
  groth16_prover_destroy(prover);
  rc |= groth16_prover(0, 0UL, 0, 0UL, error, &proof_size, error, &public_size, error, (unsigned long)sizeof error);
  return rc;
}
