/* A plugin from the future: it speaks ABI versions [7, 9] only. The host must refuse it
 * with a message naming both ranges, without calling init. */
#include <zkpipe/zkp_plugin.h>

static zkp_status_t future_init(uint32_t abi_version, zkp_error_t *err) {
  (void)abi_version;
  (void)err;
  return ZKP_ERR_INTERNAL; /* never called: the ranges do not meet */
}
static void future_deinit(void) {}
static const void *future_get_factory(const char *id) {
  (void)id;
  return NULL;
}

ZKP_EXPORT const zkp_plugin_entry_t zkp_plugin_entry = {
    ZKP_HEADER_INIT(zkp_plugin_entry_t), 7u, 9u, "future", "9.0.0", "speaks ABI 7..9 only",
    future_init, future_deinit, future_get_factory};
