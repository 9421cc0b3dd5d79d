/* verifier VKEY_JSON INPUTS_JSON PROOF_JSON: rapidsnark's `verifier` program over
 * librapidsnark. The same arguments, messages on stderr ("Result: Valid proof",
 * "Result: Invalid proof", "Error: ...") and exit status (0 only for a valid proof). */
#include <stdio.h>
#include <stdlib.h>
#include <verifier.h>

#include "file_bytes.h"

enum { kErrorSize = 256 };

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "Invalid number of parameters:\n");
    fprintf(stderr, "Usage: verifier <verification_key.json> <inputs.json> <proof.json>\n");
    return EXIT_FAILURE;
  }
  char error[kErrorSize] = "";
  zkp_file_bytes_t proof = {0}, inputs = {0}, key = {0};
  int status = EXIT_FAILURE;
  /* rapidsnark reads the proof, the inputs, then the key. */
  if (zkp_file_bytes_read(argv[3], &proof, error, sizeof error) != 0 ||
      zkp_file_bytes_read(argv[2], &inputs, error, sizeof error) != 0 ||
      zkp_file_bytes_read(argv[1], &key, error, sizeof error) != 0) {
    fprintf(stderr, "Error: %s\n", error);
  } else {
    const int result = groth16_verify(proof.data, inputs.data, key.data, error, sizeof error);
    if (result == VERIFIER_VALID_PROOF) {
      fprintf(stderr, "Result: Valid proof\n");
      status = EXIT_SUCCESS;
    } else if (result == VERIFIER_INVALID_PROOF) {
      fprintf(stderr, "Result: Invalid proof\n");
    } else {
      fprintf(stderr, "Error: %s\n", error);
    }
  }
  zkp_file_bytes_free(&proof);
  zkp_file_bytes_free(&inputs);
  zkp_file_bytes_free(&key);
  return status;
}
