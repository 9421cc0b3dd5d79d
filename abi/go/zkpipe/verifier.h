// The C half of Verifier: a prover plugin opened through the plugin ABI, for its verify.
#ifndef ZKP_GO_VERIFIER_H
#define ZKP_GO_VERIFIER_H
#include <zkpipe/zkpipe.h>

typedef struct zkp_go_verifier zkp_go_verifier;

// The file libzkpipe was loaded from, into buf; 0 if unknown.
size_t zkp_go_libzkpipe_path(char *buf, size_t capacity);
// Opens the plugin at plugin_path, creates its prover and loads `key` (read during the call,
// its data until close). *out is owned by the caller until zkp_go_verifier_close.
zkp_status_t zkp_go_verifier_open(const char *plugin_path, const zkp_key_source_t *key, zkp_go_verifier **out,
                                  zkp_error_t *err);
zkp_status_t zkp_go_verify(const zkp_go_verifier *v, const uint8_t *proof, size_t proof_size, const uint8_t *public_inputs,
                           size_t public_size, int32_t *valid, zkp_error_t *err);
void zkp_go_verifier_close(zkp_go_verifier *v);
#endif
