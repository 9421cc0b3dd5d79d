/* A well-formed plugin that offers no factory at all: loading it as a prover must fail
 * with "no prover factory". */
#include <zkpipe/zkp_plugin.h>

static zkp_status_t nofactory_init(uint32_t abi_version, zkp_error_t *err) {
  (void)abi_version;
  if (err != NULL && err->header.struct_size >= sizeof(zkp_error_t)) {
    err->status = ZKP_OK;
    err->message[0] = 0;
  }
  return ZKP_OK;
}
static void nofactory_deinit(void) {}
static const void *nofactory_get_factory(const char *id) {
  (void)id;
  return NULL;
}

ZKP_EXPORT const zkp_plugin_entry_t zkp_plugin_entry = {
    ZKP_HEADER_INIT(zkp_plugin_entry_t), 1u, 1u, "nofactory", "1.0.0", "offers no factory",
    nofactory_init, nofactory_deinit, nofactory_get_factory};
