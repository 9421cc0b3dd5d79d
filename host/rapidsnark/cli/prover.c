/* prover ZKEY WTNS PROOF_JSON PUBLIC_JSON: rapidsnark's `prover` program over librapidsnark.
 * The same arguments, output files (compact JSON, no newline), messages on stderr and exit
 * status (0, or 1 with "Error: ..."); the backend comes from ZKPIPE_RAPIDSNARK_BACKEND
 * (prover.h). It sizes the buffers as rapidsnark's does, then proves once. */
#include <prover.h>
#include <stdio.h>
#include <stdlib.h>

#include "file_bytes.h"

enum { kErrorSize = 1024 };

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "Invalid number of parameters\n");
    fprintf(stderr, "Usage: prover <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n");
    return EXIT_FAILURE;
  }
  char error[kErrorSize] = "";
  zkp_file_bytes_t zkey = {0}, wtns = {0};
  char *proof = NULL, *public_signals = NULL;
  unsigned long long public_size = 0, proof_size = 0;
  int status = EXIT_FAILURE;
  if (zkp_file_bytes_read(argv[1], &zkey, error, sizeof error) != 0 ||
      zkp_file_bytes_read(argv[2], &wtns, error, sizeof error) != 0) {
    goto done;
  }
  if (groth16_public_size_for_zkey_buf(zkey.data, zkey.size, &public_size, error, sizeof error) != PROVER_OK) {
    goto done;
  }
  groth16_proof_size(&proof_size);
  proof = malloc(proof_size);
  public_signals = malloc(public_size);
  if (proof == NULL || public_signals == NULL) {
    snprintf(error, sizeof error, "out of memory");
    goto done;
  }
  if (groth16_prover(zkey.data, zkey.size, wtns.data, wtns.size, proof, &proof_size, public_signals, &public_size,
                     error, sizeof error) != PROVER_OK) {
    goto done;
  }
  /* Both files or neither: never a new proof beside the public signals of an old one. */
  if (zkp_file_bytes_write_pair(argv[3], proof, (size_t)proof_size, argv[4], public_signals, (size_t)public_size, error,
                                sizeof error) != 0) {
    goto done;
  }
  status = EXIT_SUCCESS;
done:
  if (status != EXIT_SUCCESS) fprintf(stderr, "Error: %s\n", error);
  free(proof);
  free(public_signals);
  zkp_file_bytes_free(&zkey);
  zkp_file_bytes_free(&wtns);
  return status;
}
