/*
 * librapidsnark (zkpipe) — iden3/rapidsnark's prover API, implemented over zkpipe's host.
 *
 * The same functions, status codes and semantics as rapidsnark's src/prover.h, so a C or C++
 * program written against rapidsnark links against this library with no change to its code.
 * What differs is behind the functions: proofs run through a zkpipe host (abi/zkpipe/zkp_host.h)
 * on the prover plugin the environment names, on BN254 and BLS12-381 zkeys.
 *
 *   ZKPIPE_RAPIDSNARK_BACKEND  the prover plugin: cpu (default), cuda, or a path to a .so
 *   ZKPIPE_RAPIDSNARK_CONFIG   a zkpipe INI config file (README "Configuration"); without it the
 *                              host runs on its defaults with log_level=warn. The backend
 *                              variable, when set, overrides the file's `prover`.
 * Both are read when a prover object is created. Plugins are found as libzkpipe finds them
 * (the config's plugin_path, $ZKPIPE_PLUGIN_PATH, then libzkpipe's folder, ../lib/zkpipe, ../lib).
 *
 * Threads: every function may be called from any thread; groth16_prover_prove may be called
 * from many threads at once on one prover object, and those proofs run concurrently in the
 * host's pipeline. groth16_prover_destroy must not overlap another call on the same object.
 *
 * Buffers: every pointer is owned by the caller and read or written only during the call
 * (the key bytes given to groth16_prover_create are copied; a witness is read while the proof
 * runs, inside groth16_prover_prove). The output buffers are written only on PROVER_OK.
 *
 * error_msg: on failure, a NUL-terminated message truncated to error_msg_maxsize bytes
 * (nothing is written when error_msg is NULL or error_msg_maxsize is 0).
 *
 * Output, as rapidsnark writes it: compact JSON (no spaces, no newline), keys in this order,
 * coordinates and signals in decimal:
 *   proof   {"pi_a":[x,y,"1"],"pi_b":[[x.c0,x.c1],[y.c0,y.c1],["1","0"]],"pi_c":[x,y,"1"],"protocol":"groth16"}
 *   public  ["w1",...,"wN"]  (the witness's public signals; [] when the key has none, which
 *           snarkjs reads: rapidsnark's own JSON writer has "null" there, which it does not)
 * There is no "curve" key; a verifier takes the curve from the verification key.
 */
#ifndef PROVER_HPP
#define PROVER_HPP

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The sizes are unsigned long long, as in rapidsnark's src/prover.h today. Its older header (the
 * one go-rapidsnark vendors, and whose types go-rapidsnark's cgo code names: C.ulong) said
 * unsigned long, the same 64 bits on every LP64 system; a caller written against that header
 * builds unchanged with -DZKP_RAPIDSNARK_UNSIGNED_LONG_SIZES (for go-rapidsnark's dynamic build:
 * CGO_CFLAGS="-DZKP_RAPIDSNARK_UNSIGNED_LONG_SIZES"), and links against the same library.
 */
#ifdef ZKP_RAPIDSNARK_UNSIGNED_LONG_SIZES
#define ZKP_RAPIDSNARK_SIZE unsigned long
typedef char zkp_rapidsnark_sizes_are_64_bit[sizeof(unsigned long) == sizeof(unsigned long long) ? 1 : -1];
#else
#define ZKP_RAPIDSNARK_SIZE unsigned long long
#endif

/* Status codes of the prover functions. */
#define PROVER_OK                     0x0 /* success */
#define PROVER_ERROR                  0x1 /* any other failure; error_msg says what */
#define PROVER_ERROR_SHORT_BUFFER     0x2 /* an output buffer is too small; sizes reported */
#define PROVER_INVALID_WITNESS_LENGTH 0x3 /* the witness's wire count is not the key's */

/*
 * [any-thread] The size of a buffer that holds the public signals of any proof of this zkey
 * (JSON, with its NUL): nPublic * 82 + 4, as rapidsnark computes it (4 for none: "[]").
 * Reads the zkey's header from the caller's buffer (zkey_size bytes, read during the call).
 * Returns PROVER_OK and writes *public_size, or PROVER_ERROR (a malformed zkey, a NULL).
 */
int
groth16_public_size_for_zkey_buf(
    const void          *zkey_buffer,
    ZKP_RAPIDSNARK_SIZE  zkey_size,
    ZKP_RAPIDSNARK_SIZE *public_size,
    char                *error_msg,
    ZKP_RAPIDSNARK_SIZE  error_msg_maxsize);

/* [any-thread] The same for the zkey file at zkey_fname (PROVER_ERROR if it cannot be read). */
int
groth16_public_size_for_zkey_file(
    const char          *zkey_fname,
    ZKP_RAPIDSNARK_SIZE *public_size,
    char                *error_msg,
    ZKP_RAPIDSNARK_SIZE  error_msg_maxsize);

/*
 * [any-thread] The size of a buffer that holds any proof (JSON, with its NUL) on any curve
 * this library proves: every coordinate at its largest. Larger than rapidsnark's 810, which
 * covers BN254 only (a BLS12-381 proof needs more).
 */
void
groth16_proof_size(
    ZKP_RAPIDSNARK_SIZE *proof_size);

/*
 * [any-thread] Creates a prover for the zkey in zkey_buffer (zkey_size bytes; copied, so the
 * buffer may be freed when this returns): a zkpipe host with the backend of the environment,
 * and the key loaded on it once. *prover_object is owned by the caller until
 * groth16_prover_destroy. Returns PROVER_OK, or PROVER_ERROR (a malformed zkey, a backend
 * that cannot load, a NULL argument).
 */
int
groth16_prover_create(
    void                **prover_object,
    const void          *zkey_buffer,
    ZKP_RAPIDSNARK_SIZE  zkey_size,
    char                *error_msg,
    ZKP_RAPIDSNARK_SIZE  error_msg_maxsize);

/* [any-thread] The same for the zkey file at zkey_file_path (PROVER_ERROR if it cannot be read). */
int
groth16_prover_create_zkey_file(
    void                **prover_object,
    const char          *zkey_file_path,
    char                *error_msg,
    ZKP_RAPIDSNARK_SIZE  error_msg_maxsize);

/*
 * [any-thread, concurrently on one prover object] Proves the .wtns in wtns_buffer (wtns_size
 * bytes, read during the call) and writes the proof and the public signals as NUL-terminated
 * JSON.
 *
 * proof_size, public_size [in/out]: in, the capacities of proof_buffer and public_buffer; out,
 *   on PROVER_OK the bytes written without the NUL; on PROVER_ERROR_SHORT_BUFFER the sizes to
 *   pass instead, with the NUL: public_size exactly, proof_size enough for any proof of this
 *   key (rapidsnark reports this proof's own size, which the next proof, with fresh
 *   randomness, may exceed by a digit). As in rapidsnark, the proof is computed before the
 *   sizes are compared: size with groth16_proof_size / groth16_public_size_for_zkey_* to
 *   prove once.
 * Returns PROVER_OK; PROVER_ERROR_SHORT_BUFFER; PROVER_INVALID_WITNESS_LENGTH when the
 * witness has another number of wires than the key; PROVER_ERROR for anything else (a
 * malformed witness, another curve's witness, one that does not satisfy the circuit, a
 * NULL argument, a backend failure).
 */
int
groth16_prover_prove(
    void                *prover_object,
    const void          *wtns_buffer,
    ZKP_RAPIDSNARK_SIZE  wtns_size,
    char                *proof_buffer,
    ZKP_RAPIDSNARK_SIZE *proof_size,
    char                *public_buffer,
    ZKP_RAPIDSNARK_SIZE *public_size,
    char                *error_msg,
    ZKP_RAPIDSNARK_SIZE  error_msg_maxsize);

/* Destroys a prover object (waits for nothing: no call on it may be running). NULL: no-op. */
void
groth16_prover_destroy(void *prover_object);

/* [any-thread] create + prove + destroy in one call; the codes of groth16_prover_prove. */
int
groth16_prover(
    const void          *zkey_buffer,
    ZKP_RAPIDSNARK_SIZE  zkey_size,
    const void          *wtns_buffer,
    ZKP_RAPIDSNARK_SIZE  wtns_size,
    char                *proof_buffer,
    ZKP_RAPIDSNARK_SIZE *proof_size,
    char                *public_buffer,
    ZKP_RAPIDSNARK_SIZE *public_size,
    char                *error_msg,
    ZKP_RAPIDSNARK_SIZE  error_msg_maxsize);

/* [any-thread] The same with the zkey read from zkey_file_path. */
int
groth16_prover_zkey_file(
    const char          *zkey_file_path,
    const void          *wtns_buffer,
    ZKP_RAPIDSNARK_SIZE  wtns_size,
    char                *proof_buffer,
    ZKP_RAPIDSNARK_SIZE *proof_size,
    char                *public_buffer,
    ZKP_RAPIDSNARK_SIZE *public_size,
    char                *error_msg,
    ZKP_RAPIDSNARK_SIZE  error_msg_maxsize);

#ifdef __cplusplus
}
#endif

#endif /* PROVER_HPP */
