// The C half of Verifier (verifier.go): opens a prover plugin through the plugin ABI
// (zkp_plugin.h, zkp_prover.h), loads a key into it and calls its verify. The C host API
// has no verify of its own; this is what the host's self-check calls.
#define _GNU_SOURCE  // dladdr
#include "verifier.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct zkp_go_verifier {
  void *library;
  const zkp_plugin_entry_t *entry;
  zkp_prover_t *prover;
  zkp_key_t *key;
};

static void quiet_log(void *host_data, zkp_log_level_t level, const char *message) {
  (void)host_data;
  (void)level;
  (void)message;
}

static uint64_t monotonic_ns(void *host_data) {
  (void)host_data;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const zkp_host_services_t services = {ZKP_HEADER_INIT(zkp_host_services_t), NULL, quiet_log, monotonic_ns};

static zkp_status_t fail(zkp_error_t *err, zkp_status_t status, const char *format, ...) {
  if (err != NULL) {
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
    err->status = status;
  }
  return status;
}

size_t zkp_go_libzkpipe_path(char *buf, size_t capacity) {
  // ISO C has no function-to-object pointer cast; POSIX's dladdr takes the address as bytes.
  uint32_t (*function)(void) = zkp_host_abi_version;
  void *address;
  memcpy(&address, &function, sizeof address);
  Dl_info info;
  if (dladdr(address, &info) == 0 || info.dli_fname == NULL) return 0;
  snprintf(buf, capacity, "%s", info.dli_fname);
  return strlen(info.dli_fname);
}

void zkp_go_verifier_close(zkp_go_verifier *v) {
  if (v == NULL) return;
  if (v->key != NULL) v->prover->key_free(v->prover, v->key);
  if (v->prover != NULL) v->prover->destroy(v->prover);
  if (v->entry != NULL && v->entry->deinit != NULL) v->entry->deinit();
  if (v->library != NULL) dlclose(v->library);
  free(v);
}

zkp_status_t zkp_go_verifier_open(const char *plugin_path, const zkp_key_source_t *key, zkp_go_verifier **out,
                                  zkp_error_t *err) {
  zkp_go_verifier *v = calloc(1, sizeof *v);
  if (v == NULL) return fail(err, ZKP_ERR_OUT_OF_MEMORY, "no memory for a verifier");
  v->library = dlopen(plugin_path, RTLD_NOW);
  if (v->library == NULL) {
    zkp_status_t s = fail(err, ZKP_ERR_NOT_FOUND, "%s", dlerror());
    zkp_go_verifier_close(v);
    return s;
  }
  const zkp_plugin_entry_t *entry = dlsym(v->library, ZKP_PLUGIN_ENTRY_SYMBOL);
  if (entry == NULL || entry->abi_version_min > ZKP_ABI_VERSION || entry->abi_version_max < ZKP_ABI_VERSION) {
    zkp_status_t s = fail(err, ZKP_ERR_ABI_MISMATCH, "%s: no zkp_plugin_entry speaking ABI %u", plugin_path, ZKP_ABI_VERSION);
    zkp_go_verifier_close(v);
    return s;
  }
  zkp_status_t s = entry->init(ZKP_ABI_VERSION, err);
  if (s != ZKP_OK) {
    zkp_go_verifier_close(v);
    return s;
  }
  v->entry = entry;  // from here on, close runs deinit
  const zkp_prover_factory_t *factory = entry->get_factory(ZKP_PROVER_FACTORY_ID);
  if (factory == NULL) s = fail(err, ZKP_ERR_NOT_FOUND, "%s has no prover factory", plugin_path);
  if (s == ZKP_OK) s = factory->create(&services, NULL, 0, &v->prover, err);
  if (s == ZKP_OK && ((v->prover->flags & ZKP_PROVER_FLAG_VERIFY) == 0 || v->prover->verify == NULL)) {
    s = fail(err, ZKP_ERR_UNSUPPORTED, "prover %s cannot verify", v->prover->name);
  }
  if (s == ZKP_OK) s = v->prover->key_load(v->prover, key, -1, &v->key, err);
  if (s != ZKP_OK) {
    zkp_go_verifier_close(v);
    return s;
  }
  *out = v;
  return ZKP_OK;
}

zkp_status_t zkp_go_verify(const zkp_go_verifier *v, const uint8_t *proof, size_t proof_size, const uint8_t *public_inputs,
                           size_t public_size, int32_t *valid, zkp_error_t *err) {
  return v->prover->verify(v->prover, v->key, proof, proof_size, public_inputs, public_size, valid, err);
}
