#include "plugin_inventory.hpp"

#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_plugin.h>
#include <zkpipe/zkp_prover.h>
#include <zkpipe/sdk/error.hpp>

#include "core/formats/json.hpp"

#include <cstdio>
#include <ostream>

namespace zkp::cli {

namespace {

std::string text(const char* s) { return s == nullptr ? std::string() : std::string(s); }

}  // namespace

std::vector<PluginRecord> plugin_inventory(const host::PluginLoader& loader) {
  std::vector<PluginRecord> records;
  for (const auto& file : loader.candidates()) {
    PluginRecord r;
    r.path = file.string();
    try {
      const auto lib = host::PluginLibrary::open(file);
      const zkp_plugin_entry_t& e = lib->entry();
      r.loaded = true;
      r.name = lib->name();
      r.version = text(e.version);
      r.description = text(e.description);
      r.abi_min = e.abi_version_min;
      r.abi_max = e.abi_version_max;
      r.abi_used = lib->abi_version();
      if (const auto* f = static_cast<const zkp_prover_factory_t*>(lib->factory(ZKP_PROVER_FACTORY_ID))) {
        r.factories.push_back({ZKP_PROVER_FACTORY_ID, "prover", text(f->options_help)});
      }
      if (const auto* f = static_cast<const zkp_pacer_factory_t*>(lib->factory(ZKP_PACER_FACTORY_ID))) {
        r.factories.push_back({ZKP_PACER_FACTORY_ID, "pacer", text(f->options_help)});
      }
    } catch (const sdk::Error& e) {
      r.error = e.what();
      r.status = e.status();
    }
    records.push_back(std::move(r));
  }
  return records;
}

void write_inventory_json(std::ostream& out, const host::PluginLoader& loader,
                          const std::vector<PluginRecord>& plugins) {
  out << "{\n  \"host_abi\": [" << ZKP_ABI_VERSION_MIN_SUPPORTED << ", " << ZKP_ABI_VERSION
      << "],\n  \"search_path\": [";
  const char* sep = "";
  for (const auto& folder : loader.search_path()) {
    out << sep << json_quoted(folder.string());
    sep = ", ";
  }
  out << "],\n  \"plugins\": [";
  sep = "\n";
  for (const PluginRecord& p : plugins) {
    out << sep << "    {\"path\": " << json_quoted(p.path) << ", \"loaded\": " << (p.loaded ? "true" : "false");
    if (!p.loaded) {
      out << ", \"error\": " << json_quoted(p.error) << ", \"status\": " << json_quoted(zkp_status_name(p.status));
    } else {
      out << ", \"name\": " << json_quoted(p.name) << ", \"version\": " << json_quoted(p.version)
          << ", \"description\": " << json_quoted(p.description) << ", \"abi\": [" << p.abi_min << ", " << p.abi_max
          << "], \"abi_used\": " << p.abi_used << ", \"factories\": [";
      const char* fsep = "";
      for (const FactoryRecord& f : p.factories) {
        out << fsep << "{\"id\": " << json_quoted(f.id) << ", \"kind\": " << json_quoted(f.kind)
            << ", \"options_help\": " << json_quoted(f.options_help) << "}";
        fsep = ", ";
      }
      out << "]";
    }
    out << "}";
    sep = ",\n";
  }
  out << (plugins.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

}  // namespace zkp::cli
