/*
 * zkpipe C ABI, version 1 — prover backends (factory id "zkp.prover/1").
 *
 * A prover turns a proving key and synthesized partitions into Groth16 proofs on
 * one or more devices. The host drives it in this order:
 *
 *   create → device_count/device_info → key_load → key_info
 *     → per partition: synthesize (synthesis thread) → prove_start → prove_finish
 *       (worker thread) → synthesis_free
 *       (or: synthesize_into caller memory → prove_start with it as external input, on
 *       any device → prove_finish; nothing to free)
 *     → key_free → destroy
 *
 * prove_start enqueues the device work and returns; prove_finish waits for it and runs
 * the CPU epilogue. A worker may call prove_start for its next partition before it
 * calls prove_finish for the previous one, so the epilogue overlaps the kernels. The
 * host does so whenever that next partition is already queued (config key
 * `worker_overlap`, on by default): one worker then holds at most two ops, finishes
 * them in the order it started them, and never waits for new work while it holds one.
 *
 * The host tells the prover how it will be driven (zkp_prover_facts_t, through
 * create_with_facts), so a backend sizes its streams and thread pools to the host's
 * workers instead of asking for a second, separate concurrency setting.
 *
 * Self-check: a prover that checked a proof with the pairing before returning it says so
 * (ZKP_PROVE_OUTPUT_VERIFIED in zkp_prove_output_t.flags); the host then does not verify
 * that proof again. Each proof is checked once, by whoever owns the check.
 *
 * Devices are named by an explicit gpu_index on every call. A prover never keeps a
 * process-wide "current device": the reference engine once routed every proof to
 * device 0 that way, raced, and corrupted proofs.
 *
 * Byte formats at this boundary:
 *  - scalars (witness values, a/b/c evaluations, r, s, public inputs): 32 bytes,
 *    standard form (not Montgomery), little-endian, < r; a caller's synthesis may
 *    instead hand over Montgomery form (ZKP_SYNTHESIZED_MONTGOMERY).
 *  - a proof: A (G1) | B (G2) | C (G1), affine, each coordinate n8q bytes in standard
 *    form little-endian (n8q = 32 for BN254, 48 for BLS12-381); a G2 coordinate is
 *    c0 then c1. The point at infinity is all zero bytes. 256 bytes for BN254,
 *    384 for BLS12-381 (ZKP_PROOF_SIZE_*).
 */
#ifndef ZKP_PROVER_H
#define ZKP_PROVER_H

#include "zkp_common.h"

#define ZKP_PROVER_FACTORY_ID "zkp.prover/1"

#define ZKP_SCALAR_SIZE 32u
#define ZKP_PROOF_SIZE_BN254 256u
#define ZKP_PROOF_SIZE_BLS12_381 384u

typedef struct zkp_prover_t zkp_prover_t;
typedef struct zkp_key_t zkp_key_t;             /* opaque, owned by the prover */
typedef struct zkp_synthesis_t zkp_synthesis_t; /* opaque, owned by the prover */
typedef struct zkp_prove_op_t zkp_prove_op_t;   /* opaque, owned by the prover */

/* Prover capability flags. */
#define ZKP_PROVER_FLAG_SIMULATED 1u /* a simulation: produces no proof bytes */
#define ZKP_PROVER_FLAG_GPU 2u       /* devices are GPUs (else CPU "devices") */
#define ZKP_PROVER_FLAG_VERIFY 4u    /* verify() is implemented */

typedef struct zkp_device_info_t {
  zkp_struct_header_t header;
  char name[128];              /* "NVIDIA H200", "cpu (16 threads)", "simulated device 1" */
  uint64_t memory_bytes;       /* total device memory, 0 if not applicable */
  uint64_t memory_free_bytes;  /* free device memory now, 0 if not applicable */
  uint64_t partitions_started; /* prove_start calls that ran on this device */
  uint64_t partitions_proved;  /* prove_finish calls that succeeded on this device */
  uint64_t busy_ns;            /* total gpu_duration reported for this device */
} zkp_device_info_t;

/* The file format of a proving key (zkp_key_source_t.format). */
typedef uint32_t zkp_key_format_t;
#define ZKP_KEY_FORMAT_ZKEY 0u       /* snarkjs Groth16 .zkey (BN254 or BLS12-381) */
#define ZKP_KEY_FORMAT_BELLPERSON 1u /* bellperson/Filecoin Groth16 parameters (BLS12-381):
                                        vk, then ic, h, l, a, b_g1, b_g2, uncompressed
                                        zkcrypto encoding (docs: provers/core/formats) */

/* Where a proving key comes from: a file path, or a buffer in memory. */
typedef struct zkp_key_source_t {
  zkp_struct_header_t header;
  const char *path; /* a key file, or NULL; owned by the caller, valid for the call */
  const void *data; /* key bytes if path is NULL; owned by the caller, valid until key_free()
                       (a zkey is read in place; a bellperson file is decoded at key_load,
                       so its buffer need only outlive the call) */
  size_t size;
  /* Added after the first release; a struct_size that does not cover it means ZKEY. */
  zkp_key_format_t format; /* ZKP_KEY_FORMAT_* */
  /* Added after format; NULL when struct_size does not cover it. The host's, not the
   * prover's (a prover ignores it): a witness generator plugin of the key's circuit
   * (zkp_witness.h, e.g. `zkpipe witness build`'s output), which computes the witness of
   * partitions given as ZKP_WITNESS_INPUT_JSON. Owned by the caller, valid for the call. */
  const char *witness_generator;
} zkp_key_source_t;

typedef struct zkp_key_info_t {
  zkp_struct_header_t header;
  zkp_curve_t curve;
  uint32_t n_vars;      /* wires, including the constant 1 at index 0 */
  uint32_t n_public;    /* public outputs + public inputs, without the constant */
  uint32_t domain_size; /* power of two */
  /* Exact host bytes one synthesized partition of this key holds until
   * synthesis_free(); the host reserves this much of its memory budget at admission. */
  uint64_t synthesis_bytes;
  uint32_t proof_size;  /* bytes of one proof */
  uint32_t public_size; /* bytes of the public inputs: n_public * ZKP_SCALAR_SIZE */
  /* Added after the first release; written only when the caller's header.struct_size covers
   * it (a caller that knows it sets it to 0 first). The bytes synthesize_into needs for one
   * partition of this key in the ZKP_SYNTHESIZED_INTO layout, (3 * domain_size + n_vars) *
   * ZKP_SCALAR_SIZE; 0 if this prover cannot synthesize this key into caller memory (no
   * synthesize_into, or a key format it does not support there: then use synthesize). */
  uint64_t synthesized_bytes;
  /* Added after synthesized_bytes, written the same way. The device memory this key takes on
   * each device it is loaded on: its resident bases with their precomputed copies, their MSM
   * scratch and, where the device evaluates the constraint system (the cuda prover's
   * synthesis=device), that system; not the workers' per-proof scratch. The estimate key_load
   * checks against the device before uploading. 0 for a prover without devices. */
  uint64_t device_bytes;
} zkp_key_info_t;

/* A witness for one partition. */
typedef uint32_t zkp_witness_kind_t;
#define ZKP_WITNESS_NONE 0u        /* no witness (simulated provers only) */
#define ZKP_WITNESS_WTNS_FILE 1u   /* `path` names a snarkjs .wtns file */
#define ZKP_WITNESS_WTNS_BUFFER 2u /* `data`/`size` hold .wtns bytes */
#define ZKP_WITNESS_ASSIGNMENT 3u  /* `data`/`size`: n_vars scalars, the full assignment */
#define ZKP_WITNESS_INPUT_JSON 4u  /* `data`/`size`: the circuit's input.json text; the host
                                      computes the witness with the key's witness generator
                                      (zkp_key_source_t.witness_generator) during synthesis,
                                      so a prover never sees this kind */

typedef struct zkp_witness_t {
  zkp_struct_header_t header;
  zkp_witness_kind_t kind;
  const char *path; /* owned by the caller, valid until the partition completes */
  const void *data; /* owned by the caller, valid until the partition completes */
  size_t size;
} zkp_witness_t;

/* zkp_synthesized_t.flags */
#define ZKP_SYNTHESIZED_MONTGOMERY 1u /* every scalar of a, b, c and the assignments is in
                                         Montgomery form, x·2^256 mod r as four little-endian
                                         u64 limbs: the memory of a blstrs/bellperson Scalar
                                         (or an arkworks/halo2 Fr), handed over unconverted */

/* Inputs a caller synthesized itself (the bellperson/Filecoin path): evaluations of
 * A·w, B·w and C·w on the domain, and the assignment. Owned by the caller, valid until
 * the partition completes; never modified.
 *
 * Variables are numbered as bellperson numbers them: inputs first (input 0 is the
 * constant 1; for a zkey key the inputs are wire 0 and the nPublic public wires), then
 * aux. `assignment` holds all of them, or, when aux_assignment is set, the inputs only.
 *
 * Density (bellperson keys only; NULL for a zkey key): a bellperson key's a, b_g1 and
 * b_g2 queries leave out variables that never occur in A (resp. B). A bitmap says which
 * variables the queries hold, bit i of word i/64 (LSB first) for variable i of its range:
 *   a_aux_density    aux variables in A (inputs are always in A)
 *   b_input_density  inputs in B
 *   b_aux_density    aux variables in B
 * Each bitmap has bit_len bits (the variable count of its range) in ceil(bit_len/64)
 * words; bits past bit_len are ignored. NULL means every bit set. Its popcount must
 * equal the key's query length for that range (checked: ZKP_ERR_BAD_INPUT names the
 * field). bellperson's ProvingAssignment density trackers are these bitmaps as they are. */
typedef struct zkp_synthesized_t {
  zkp_struct_header_t header;
  const uint8_t *a; /* abc_length scalars; rows abc_length..domain_size-1 are zero */
  const uint8_t *b;
  const uint8_t *c;
  uint64_t abc_length;  /* <= domain_size of the key */
  const uint8_t *assignment; /* every variable (n_vars), or the inputs if aux_assignment is
                                set; assignment[0] must be 1 */
  uint64_t assignment_length;
  /* Added after the first release; present when header.struct_size covers them (an
   * older caller's struct means: flags 0, no aux_assignment, no density bitmaps). */
  uint32_t flags;                 /* ZKP_SYNTHESIZED_* */
  const uint8_t *aux_assignment;  /* NULL, or the aux variables (after the inputs) */
  uint64_t aux_assignment_length;
  const uint64_t *a_aux_density;
  uint64_t a_aux_bit_len;
  const uint64_t *b_input_density;
  uint64_t b_input_bit_len;
  const uint64_t *b_aux_density;
  uint64_t b_aux_bit_len;
} zkp_synthesized_t;

/* zkp_prove_input_t.flags */
#define ZKP_PROVE_INPUT_FINAL 1u /* the host will never pass this `synthesis` to prove_start
                                    again (no retry can follow: one device, a pinned job, the
                                    retries used up): the prover may take the synthesis's memory
                                    over (work in it, release it) instead of copying what its
                                    proof works on, and may refuse the synthesis if it is passed
                                    again. The host still calls synthesis_free(). Without it a
                                    synthesis is read, never modified. Meaningless with
                                    `external` (the caller's memory is never modified). */

/* The input of one proof. Exactly one of `synthesis` and `external` is non-NULL. */
typedef struct zkp_prove_input_t {
  zkp_struct_header_t header;
  const zkp_synthesis_t *synthesis;  /* from this prover's synthesize() */
  const zkp_synthesized_t *external; /* synthesized by the caller */
  /* NULL: r and s are drawn from the operating system's CSPRNG (zero knowledge
   * depends on it). Else 2 scalars r || s for reproducible tests. Owned by the caller,
   * valid for the prove_start call. */
  const uint8_t *randomness;
  /* Added after the first release; present when header.struct_size covers it (an older
   * host's struct means 0). A prover that does not know a flag ignores it: every flag only
   * permits. */
  uint32_t flags; /* ZKP_PROVE_INPUT_* */
} zkp_prove_input_t;

/* zkp_prove_output_t.flags: the prover checked this proof against the key's verification
 * key with the pairing before returning it (and would have failed prove_finish had it not
 * verified). The host does not verify such a proof again. */
#define ZKP_PROVE_OUTPUT_VERIFIED 1u

/* What prove_finish writes. The caller owns the buffers and sets the capacities.
 * Fields after ntt_ns came later: a prover writes one only when the caller's
 * header.struct_size covers it, and a caller that knows it sets it to 0 first. */
typedef struct zkp_prove_output_t {
  zkp_struct_header_t header;
  uint8_t *proof;          /* proof_capacity bytes, caller-owned */
  size_t proof_capacity;
  size_t proof_size;       /* written: bytes of proof (0 for a simulated prover) */
  uint8_t *public_inputs;  /* public_capacity bytes, caller-owned */
  size_t public_capacity;
  size_t public_size;      /* written: bytes of public inputs (0 when simulated) */
  int32_t gpu_index;       /* written: the device the proof ran on */
  uint64_t gpu_duration_ns;   /* written: device time of this proof (CUDA events, or measured) */
  uint64_t epilogue_ns;       /* written: CPU time in prove_finish after the device work */
  uint64_t msm_ns;            /* written: informational stage timings, 0 if unknown */
  uint64_t ntt_ns;
  uint32_t flags;             /* written (when struct_size covers it): ZKP_PROVE_OUTPUT_* */
} zkp_prove_output_t;

struct zkp_prover_t {
  zkp_struct_header_t header;
  void *impl;       /* owned by the plugin */
  const char *name; /* owned by the plugin, valid until destroy(); says "simulated" if it is */
  uint32_t flags;   /* ZKP_PROVER_FLAG_* */

  /* [serialized] Frees the prover. Every key, synthesis and op must be freed first. */
  void(ZKP_CALL *destroy)(zkp_prover_t *self);

  /* [any-thread] Number of devices; indices are 0..count-1. */
  uint32_t(ZKP_CALL *device_count)(const zkp_prover_t *self);

  /* [any-thread] Describes device `gpu_index` into *out (caller-owned, header set by
   * the caller). ZKP_ERR_INVALID_ARGUMENT if gpu_index >= device_count(). */
  zkp_status_t(ZKP_CALL *device_info)(const zkp_prover_t *self, uint32_t gpu_index,
                                      zkp_device_info_t *out, zkp_error_t *err);

  /* [any-thread] Loads a proving key onto device `gpu_index`, or every device if it is
   * -1. *out is owned by the prover until key_free(). Loading a key the prover already
   * holds may return a new handle to a shared resident copy. */
  zkp_status_t(ZKP_CALL *key_load)(zkp_prover_t *self, const zkp_key_source_t *source,
                                   int32_t gpu_index, zkp_key_t **out, zkp_error_t *err);

  /* [any-thread] Describes a loaded key into *out (caller-owned). */
  zkp_status_t(ZKP_CALL *key_info)(const zkp_prover_t *self, const zkp_key_t *key,
                                   zkp_key_info_t *out, zkp_error_t *err);

  /* [any-thread] Frees a key. No synthesis or op of it may be outstanding; calls on other
   * keys may be (the host frees a key on the thread that unloads it or destroys the host,
   * or, when a job still holds it, on the pipeline thread that ends that job's last
   * partition). */
  void(ZKP_CALL *key_free)(zkp_prover_t *self, zkp_key_t *key);

  /* [synthesis-thread, any-thread] Synthesizes one partition: reads the witness, checks
   * it against the key, computes a, b, c. A witness that does not satisfy the circuit
   * fails with ZKP_ERR_UNSATISFIED_WITNESS, never turns into a proof. *out is owned by
   * the prover until synthesis_free() and holds at most key_info.synthesis_bytes. */
  zkp_status_t(ZKP_CALL *synthesize)(zkp_prover_t *self, const zkp_key_t *key,
                                     const zkp_witness_t *witness, zkp_synthesis_t **out,
                                     zkp_error_t *err);

  /* [any-thread] Frees a synthesis (after its prove_finish). */
  void(ZKP_CALL *synthesis_free)(zkp_prover_t *self, zkp_synthesis_t *synthesis);

  /* [worker-thread] Starts a proof on device `gpu_index` (-1: the prover picks the
   * least busy) for worker `worker` of that device, and returns once the device work
   * is enqueued. *op is owned by the prover until prove_finish(), which must always be
   * called, also after a failure elsewhere. The input is read, never modified: after a
   * device error the host may prove the same synthesis again on another device; unless
   * input->flags has ZKP_PROVE_INPUT_FINAL, which hands the synthesis's memory over. */
  zkp_status_t(ZKP_CALL *prove_start)(zkp_prover_t *self, const zkp_key_t *key,
                                      const zkp_prove_input_t *input, int32_t gpu_index,
                                      uint32_t worker, zkp_prove_op_t **op, zkp_error_t *err);

  /* [worker-thread] Waits for `op`, runs the epilogue and writes *out. Frees `op`
   * whatever it returns. ZKP_ERR_SHORT_BUFFER if a capacity is too small (the sizes
   * needed are written to proof_size / public_size). */
  zkp_status_t(ZKP_CALL *prove_finish)(zkp_prover_t *self, zkp_prove_op_t *op,
                                       zkp_prove_output_t *out, zkp_error_t *err);

  /* [any-thread] Checks a proof against the key's verification key (the host's
   * self-check, and its callers' zkp_host_verify, which checks the sizes first). Writes
   * *valid = 1 or 0; a failure status means it could not check.
   * May be NULL if flags lacks ZKP_PROVER_FLAG_VERIFY. */
  zkp_status_t(ZKP_CALL *verify)(const zkp_prover_t *self, const zkp_key_t *key,
                                 const uint8_t *proof, size_t proof_size,
                                 const uint8_t *public_inputs, size_t public_size,
                                 int32_t *valid, zkp_error_t *err);

  /* Added after the first release: present when header.struct_size covers it (a table that
   * ends at verify, or a NULL here, means the prover has no such entry: use synthesize).
   *
   * [synthesis-thread, any-thread] Synthesizes one partition as synthesize() does (the same
   * witness checks, the same errors: ZKP_ERR_UNSATISFIED_WITNESS never turns into a
   * synthesis), but into `buffer`, owned by the caller, 8-byte aligned, at least
   * key_info.synthesized_bytes long (ZKP_ERR_SHORT_BUFFER otherwise; ZKP_ERR_UNSUPPORTED
   * for a key whose synthesized_bytes is 0), in the ZKP_SYNTHESIZED_INTO layout below, and
   * describes it in *out (owned by the caller, header set by the caller), whose pointers
   * point into `buffer`. The result is a caller synthesis: prove_start takes it as
   * zkp_prove_input_t.external on any device of any prover object holding the same key, in
   * this process or another that maps the same memory (isolation = process synthesizes in
   * one device process and proves in another). Nothing of it is owned by the prover: there
   * is nothing to free.
   *
   * ZKP_SYNTHESIZED_INTO layout, for a key of D = domain_size and N = n_vars, scalars in
   * standard form (out->flags has no ZKP_SYNTHESIZED_MONTGOMERY), from the buffer's start:
   *   a = A·w   D scalars     at 0
   *   b = B·w   D scalars     at D * ZKP_SCALAR_SIZE
   *   c = a∘b   D scalars     at 2 * D * ZKP_SCALAR_SIZE (the c snarkjs's prover forms)
   *   w         N scalars     at 3 * D * ZKP_SCALAR_SIZE, the full assignment, w[0] = 1
   * so out->abc_length = D, out->assignment_length = N, no aux_assignment, no density. */
  zkp_status_t(ZKP_CALL *synthesize_into)(zkp_prover_t *self, const zkp_key_t *key,
                                          const zkp_witness_t *witness, uint8_t *buffer,
                                          size_t buffer_size, zkp_synthesized_t *out,
                                          zkp_error_t *err);

  /* Added after synthesize_into: present when header.struct_size covers it (absent or NULL:
   * the host takes an op's input to be read until prove_finish returns).
   *
   * [worker-thread] Waits until the part of `op` that reads its input has ended (a GPU
   * prover: the device work, uploads and all), before the epilogue prove_finish runs, and
   * returns ZKP_OK when it ended well: from then on the prover reads nothing of the op's
   * zkp_prove_input_t (not the caller's external memory, not the synthesis, not the
   * randomness), whatever prove_finish does. The host may then tell the caller its memory is
   * free (zkp_job_t.on_input_released) and never proves that input again. A failure status
   * (and *err) says the work failed; the input may still be needed, for a retry elsewhere.
   * Either way prove_finish must still be called, and reports the op's outcome itself. Called
   * at most once per op, on the thread that then calls prove_finish. */
  zkp_status_t(ZKP_CALL *prove_wait)(zkp_prover_t *self, zkp_prove_op_t *op, zkp_error_t *err);
};

/* How the host drives a prover, fixed for the prover's lifetime (create_with_facts).
 * Owned by the host, valid for the create call (copy what is needed). The host sets
 * every field to at least 1; a plugin reads a 0, or a field beyond struct_size, as 1. */
typedef struct zkp_prover_facts_t {
  zkp_struct_header_t header;
  uint32_t workers_per_device; /* worker threads per device, each passing its index as `worker`
                                  (0..workers_per_device-1) to prove_start */
  uint32_t synthesis_threads;  /* host threads that may call synthesize concurrently */
  uint32_t ops_per_worker;     /* most ops one worker holds between prove_start and
                                  prove_finish: 2 with worker_overlap, else 1 */
} zkp_prover_facts_t;

typedef struct zkp_prover_factory_t {
  zkp_struct_header_t header;
  /* Documentation of the options create() accepts, one "key=default  meaning" per
   * line; static, owned by the plugin. */
  const char *options_help;
  /* [any-thread] Creates a prover (hosts created at once on several threads create
   * their provers at once). `host` is owned by the host and outlives the prover. An
   * unknown or malformed option fails with ZKP_ERR_INVALID_ARGUMENT and a message naming
   * the key. *out is owned by the plugin until (*out)->destroy(). */
  zkp_status_t(ZKP_CALL *create)(const zkp_host_services_t *host, const zkp_option_t *options,
                                 size_t option_count, zkp_prover_t **out, zkp_error_t *err);
  /* Added after the first release; present when header.struct_size covers it (a host
   * that finds it absent, or NULL, calls create). [any-thread] Creates a prover as
   * create does, told how the host will drive it. `facts` is owned by the host, valid
   * for the call; a plugin reads only the fields facts->header.struct_size covers. */
  zkp_status_t(ZKP_CALL *create_with_facts)(const zkp_host_services_t *host,
                                            const zkp_prover_facts_t *facts,
                                            const zkp_option_t *options, size_t option_count,
                                            zkp_prover_t **out, zkp_error_t *err);
} zkp_prover_factory_t;

#endif /* ZKP_PROVER_H */
