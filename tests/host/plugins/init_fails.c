/* A plugin whose init fails with its own status and message; the host must report
 * both and unload it. */
#include <zkpipe/zkp_plugin.h>

#include <stdio.h>

static zkp_status_t initfail_init(uint32_t abi_version, zkp_error_t *err) {
  (void)abi_version;
  if (err != NULL && err->header.struct_size >= sizeof(zkp_error_t)) {
    err->status = ZKP_ERR_DEVICE;
    snprintf(err->message, sizeof err->message, "no device driver found (test plugin)");
  }
  return ZKP_ERR_DEVICE;
}
static void initfail_deinit(void) {}
static const void *initfail_get_factory(const char *id) {
  (void)id;
  return NULL;
}

ZKP_EXPORT const zkp_plugin_entry_t zkp_plugin_entry = {
    ZKP_HEADER_INIT(zkp_plugin_entry_t), 1u, 1u, "initfail", "1.0.0", "init always fails",
    initfail_init, initfail_deinit, initfail_get_factory};
