/*
 * zkpipe C ABI, version 1 — witness generators (factory id "zkp.witness/1").
 *
 * A witness generator turns a circuit's input (input.json, as snarkjs and rapidsnark take it)
 * into its witness: the value of every signal, the assignment a prover proves. One generator
 * object computes the witnesses of one circuit; a plugin may hold one circuit (zkpipe's circom
 * generator: `zkpipe witness build CIRCUIT_cpp/` compiles circom's C++ output into a plugin of
 * its own) or many (an option names the circuit).
 *
 * Thread rules: create and destroy are [any-thread] and [serialized] per object; info and
 * calculate are [any-thread]: the host calls calculate on several synthesis threads at once,
 * on one generator.
 */
#ifndef ZKP_WITNESS_H
#define ZKP_WITNESS_H

#include "zkp_common.h"

#define ZKP_WITNESS_FACTORY_ID "zkp.witness/1"

/* What a generator computes, fixed for its lifetime. */
typedef struct zkp_witness_circuit_t {
  zkp_struct_header_t header;
  zkp_curve_t curve;     /* the scalar field the generator computes in, by its prime */
  uint32_t n_signals;    /* witness values, the constant 1 at index 0 included (a key's n_vars) */
  uint32_t n_outputs;    /* the main component's outputs, at indices 1 .. n_outputs (public; the
                            circuit's public inputs follow them, as its key's n_public says) */
  uint32_t n_inputs;     /* input signal values the circuit's main component takes */
  const char *name;      /* the circuit's, for messages; owned by the generator */
} zkp_witness_circuit_t;

typedef struct zkp_witness_generator_t zkp_witness_generator_t;
struct zkp_witness_generator_t {
  zkp_struct_header_t header;
  void *impl;       /* owned by the plugin */
  const char *name; /* owned by the plugin, valid until destroy() */

  /* [serialized] Frees the generator; no calculate may be running. */
  void(ZKP_CALL *destroy)(zkp_witness_generator_t *self);

  /* [any-thread] Describes the circuit. */
  zkp_status_t(ZKP_CALL *circuit)(zkp_witness_generator_t *self, zkp_witness_circuit_t *out, zkp_error_t *err);

  /* [any-thread] The witness of one input: `input` is JSON text (`input_size` bytes, no NUL
   * needed), an object whose keys name the main component's input signals (nested objects
   * and arrays as circom flattens them) and whose values are decimal strings, "0x" hex
   * strings, or integers. Writes n_signals values of ZKP_SCALAR_SIZE bytes each, little-endian
   * standard form (ZKP_WITNESS_ASSIGNMENT's layout), into out[0 .. capacity) and sets *size to
   * that length; ZKP_ERR_SHORT_BUFFER (with *size set, nothing written) when capacity is less.
   * Errors: ZKP_ERR_BAD_INPUT for input that is not the circuit's (malformed JSON, a signal
   * the circuit has no input of, a missing one, too many or too few values, a value not an
   * integer below the field prime), naming the signal; ZKP_ERR_UNSATISFIED_WITNESS when the
   * circuit's own code refuses the input (a failed `assert`), naming the template, its line
   * and the component. A failed call leaves the generator usable. */
  zkp_status_t(ZKP_CALL *calculate)(zkp_witness_generator_t *self, const char *input, size_t input_size,
                                    uint8_t *out, size_t capacity, size_t *size, zkp_error_t *err);
};

typedef struct zkp_witness_factory_t {
  zkp_struct_header_t header;
  /* One "key=default  meaning" line per option; static, owned by the plugin. */
  const char *options_help;
  /* [any-thread] Creates a generator. An unknown or malformed option fails with
   * ZKP_ERR_INVALID_ARGUMENT naming the key. `host` is owned by the host and outlives the
   * generator. *out is owned by the plugin until (*out)->destroy(). */
  zkp_status_t(ZKP_CALL *create)(const zkp_host_services_t *host, const zkp_option_t *options,
                                 size_t option_count, zkp_witness_generator_t **out, zkp_error_t *err);
} zkp_witness_factory_t;

#endif /* ZKP_WITNESS_H */
