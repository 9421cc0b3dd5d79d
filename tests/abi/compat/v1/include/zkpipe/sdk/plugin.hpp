// One macro defines a plugin's exported entry from its factories:
//
//   ZKP_PLUGIN("greedy", "1.0.0", "admits whenever the memory budget allows",
//              zkp::sdk::PacerFactory<GreedyPacer>)
//
// It exports `zkp_plugin_entry` (the only exported symbol), speaking ABI version 1, and
// answers get_factory() for each listed factory's id.
#pragma once

#include <zkpipe/zkp_plugin.h>
#include <zkpipe/sdk/error.hpp>

#include <cstring>

namespace zkp::sdk {

template <class... Factories>
const void* get_factory(const char* factory_id) {
  if (factory_id == nullptr) return nullptr;
  const void* found = nullptr;
  ((found == nullptr && std::strcmp(factory_id, Factories::id) == 0 ? (found = &Factories::table, 0) : 0),
   ...);
  return found;
}

inline zkp_status_t default_init(uint32_t abi_version, zkp_error_t* err) {
  if (abi_version != ZKP_ABI_VERSION) {
    set_error(err, ZKP_ERR_ABI_MISMATCH, "plugin speaks ABI version 1 only");
    return ZKP_ERR_ABI_MISMATCH;
  }
  clear_error(err);
  return ZKP_OK;
}

inline void default_deinit() {}

}  // namespace zkp::sdk

#define ZKP_PLUGIN(NAME, VERSION, DESCRIPTION, ...)                                        \
  extern "C" ZKP_EXPORT_ATTR const zkp_plugin_entry_t zkp_plugin_entry = {                 \
      ZKP_HEADER_INIT(zkp_plugin_entry_t), ZKP_ABI_VERSION, ZKP_ABI_VERSION, NAME, VERSION, \
      DESCRIPTION, &::zkp::sdk::default_init, &::zkp::sdk::default_deinit,                  \
      &::zkp::sdk::get_factory<__VA_ARGS__>}
