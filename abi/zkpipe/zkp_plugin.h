/*
 * zkpipe C ABI, version 1 — the plugin entry point.
 *
 * A plugin is a shared library that exports exactly one symbol:
 *
 *     ZKP_EXPORT const zkp_plugin_entry_t zkp_plugin_entry;
 *
 * The host opens the library, reads the entry, negotiates an ABI version, calls
 * init() once, then asks get_factory() for the factories it knows by versioned
 * string id ("zkp.prover/1", "zkp.pacer/1"). Factories create objects (provers,
 * pacers). The host keeps the library loaded while any object created from it
 * lives, and calls deinit() once after the last one is destroyed.
 *
 * Version negotiation: the host speaks [ZKP_ABI_VERSION_MIN_SUPPORTED,
 * ZKP_ABI_VERSION]; the plugin states [abi_version_min, abi_version_max]. The host
 * picks the highest version in both ranges and passes it to init(); if the ranges do
 * not meet, the host refuses the plugin with a message naming both ranges.
 *
 * Factory ids are "zkp.<kind>/<revision>". A revision changes when a factory's table
 * changes incompatibly; tables otherwise only grow at the end, and the header of each
 * struct tells its size.
 */
#ifndef ZKP_PLUGIN_H
#define ZKP_PLUGIN_H

#include "zkp_common.h"

#define ZKP_ABI_VERSION_MIN_SUPPORTED 1u

/* The name of the symbol every plugin exports. */
#define ZKP_PLUGIN_ENTRY_SYMBOL "zkp_plugin_entry"

typedef struct zkp_plugin_entry_t {
  zkp_struct_header_t header;

  /* The ABI versions this plugin speaks, inclusive. */
  uint32_t abi_version_min;
  uint32_t abi_version_max;

  /* Identity, static strings owned by the plugin, valid while the library is loaded.
   * `name` is short and unique among plugins ("cpu", "sim", "pi"). */
  const char *name;
  const char *version;
  const char *description;

  /* [serialized] Called once after loading, before any get_factory(), with the
   * negotiated ABI version. Returns ZKP_OK or fills *err; on failure the host unloads
   * the library and reports the message. The host loads, initialises, deinitialises and
   * unloads every plugin under one process-wide lock, on the thread that loads it (the
   * one creating a host) or drops its last object (the one destroying a host). */
  zkp_status_t(ZKP_CALL *init)(uint32_t abi_version, zkp_error_t *err);

  /* [serialized] Called once, after every object created through this plugin has
   * been destroyed, just before unloading. Must not fail. */
  void(ZKP_CALL *deinit)(void);

  /* [any-thread] Returns the factory for `factory_id` (e.g. ZKP_PROVER_FACTORY_ID),
   * or NULL if this plugin has none. The pointer is owned by the plugin, static,
   * valid until deinit(). Its concrete type is given by the id. */
  const void *(ZKP_CALL *get_factory)(const char *factory_id);
} zkp_plugin_entry_t;

#endif /* ZKP_PLUGIN_H */
