/* The `never` pacer: the README's first example plugin, kept as the bug it was. It
 * answers 10 ms to every next_admission_ns, which the ABI reads as "ask me again in 10 ms",
 * so it never admits anything. The host's admission watchdog must notice. */
#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_plugin.h>

#include <stdlib.h>
#include <string.h>

static void ZKP_CALL never_destroy(zkp_pacer_t *self) { free(self); }
static void ZKP_CALL never_on_event(zkp_pacer_t *self, const zkp_pacer_event_t *event) {
  (void)self;
  (void)event;
}
static uint64_t ZKP_CALL never_next_admission_ns(zkp_pacer_t *self, const zkp_pipeline_state_t *state) {
  (void)self;
  (void)state;
  return 10000000u; /* "every 10 ms", as the README had it */
}
static size_t ZKP_CALL never_status_line(zkp_pacer_t *self, char *buf, size_t capacity) {
  static const char line[] = "never: asks to be asked again in 10 ms, forever";
  (void)self;
  if (capacity > 0) {
    size_t n = sizeof line - 1 < capacity - 1 ? sizeof line - 1 : capacity - 1;
    memcpy(buf, line, n);
    buf[n] = 0;
  }
  return sizeof line - 1;
}

static zkp_status_t ZKP_CALL never_create(const zkp_host_services_t *host, const zkp_pacer_facts_t *facts,
                                          const zkp_option_t *options, size_t option_count, zkp_pacer_t **out,
                                          zkp_error_t *err) {
  zkp_pacer_t *p;
  (void)host;
  (void)facts;
  (void)options;
  (void)err;
  if (option_count != 0) return ZKP_ERR_INVALID_ARGUMENT;
  p = (zkp_pacer_t *)calloc(1, sizeof *p);
  if (p == NULL) return ZKP_ERR_OUT_OF_MEMORY;
  p->header.struct_size = (uint32_t)sizeof *p;
  p->header.struct_version = 1u;
  p->name = "never";
  p->destroy = never_destroy;
  p->on_event = never_on_event;
  p->next_admission_ns = never_next_admission_ns;
  p->status_line = never_status_line;
  *out = p;
  return ZKP_OK;
}

static const zkp_pacer_factory_t never_factory = {ZKP_HEADER_INIT(zkp_pacer_factory_t), "(no options)\n",
                                                  never_create};

static zkp_status_t never_init(uint32_t abi_version, zkp_error_t *err) {
  (void)abi_version;
  (void)err;
  return ZKP_OK;
}
static void never_deinit(void) {}
static const void *never_get_factory(const char *id) {
  return strcmp(id, ZKP_PACER_FACTORY_ID) == 0 ? (const void *)&never_factory : NULL;
}

ZKP_EXPORT const zkp_plugin_entry_t zkp_plugin_entry = {
    ZKP_HEADER_INIT(zkp_plugin_entry_t), 1u, 1u, "never", "1.0.0", "never admits (the README's old example)",
    never_init, never_deinit, never_get_factory};
