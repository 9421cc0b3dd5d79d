/* prover.h and verifier.h compile alone, together, as C99 with -pedantic-errors and as C++
 * (headers.cpp includes this file): the build is the test. The two headers declare rapidsnark's
 * functions exactly; a call of each, with its argument types, is checked here. */
#include <prover.h>
#include <verifier.h>

int zkp_rapidsnark_headers_check(void);

int zkp_rapidsnark_headers_check(void) {
  unsigned long long proof_size = 0, public_size = 0;
  char error[16];
  void *prover = 0;
  groth16_proof_size(&proof_size);
  int rc = groth16_public_size_for_zkey_buf(0, 0, &public_size, error, sizeof error);
  rc |= groth16_public_size_for_zkey_file("", &public_size, error, sizeof error);
  rc |= groth16_prover_create(&prover, 0, 0, error, sizeof error);
  rc |= groth16_prover_create_zkey_file(&prover, "", error, sizeof error);
  rc |= groth16_prover_prove(prover, 0, 0, error, &proof_size, error, &public_size, error, sizeof error);
  groth16_prover_destroy(prover);
  rc |= groth16_prover(0, 0, 0, 0, error, &proof_size, error, &public_size, error, sizeof error);
  rc |= groth16_prover_zkey_file("", 0, 0, error, &proof_size, error, &public_size, error, sizeof error);
  rc |= groth16_verify("", "", "", error, (unsigned long)sizeof error);
  return rc | PROVER_OK | PROVER_ERROR | PROVER_ERROR_SHORT_BUFFER | PROVER_INVALID_WITNESS_LENGTH |
         VERIFIER_VALID_PROOF | VERIFIER_INVALID_PROOF | VERIFIER_ERROR;
}
