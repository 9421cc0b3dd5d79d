/*
 * librapidsnark (zkpipe) — iden3/rapidsnark's verifier API, implemented with zkpipe's pairing.
 * The same function, codes and semantics as rapidsnark's src/verifier.h, on BN254 and
 * BLS12-381 verification keys (rapidsnark's own: BN254 only).
 */
#ifndef VERIFIER_HPP
#define VERIFIER_HPP

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of groth16_verify. */
#define VERIFIER_VALID_PROOF        0x0 /* the proof verifies */
#define VERIFIER_INVALID_PROOF      0x1 /* well-formed, but the proof does not verify */
#define VERIFIER_ERROR              0x2 /* malformed JSON or arguments; error_msg says what */

/*
 * [any-thread] Verifies a Groth16 proof. proof, inputs and verification_key are NUL-terminated
 * JSON strings owned by the caller, read during the call: proof.json (snarkjs's, zkpipe's or
 * rapidsnark's, whose curve is the key's), public.json and snarkjs's verification_key.json.
 * On VERIFIER_ERROR, error_msg gets a NUL-terminated message truncated to error_msg_maxsize
 * bytes (nothing when error_msg is NULL or error_msg_maxsize is 0).
 */
int
groth16_verify(const char    *proof,
               const char    *inputs,
               const char    *verification_key,
               char          *error_msg,
               unsigned long  error_msg_maxsize);

#ifdef __cplusplus
}
#endif

#endif /* VERIFIER_HPP */
