#include "checks.hpp"

#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_prover.h>
#include <zkpipe/sdk/error.hpp>

#include <filesystem>

namespace zkp::conformance {

namespace {

bool empty(const char* s) { return s == nullptr || *s == 0; }

// "libzkp_prover_NAME.so" -> NAME, or "" for another file name.
std::string name_in_file(const std::string& file) {
  for (const std::string prefix : {"libzkp_prover_", "libzkp_pacer_"}) {
    if (file.size() > prefix.size() + 3 && file.starts_with(prefix) && file.ends_with(".so")) {
      return file.substr(prefix.size(), file.size() - prefix.size() - 3);
    }
  }
  return {};
}

}  // namespace

std::shared_ptr<host::PluginLibrary> check_entry(Report& report, const std::string& path) {
  report.section(cat("library ", path));
  std::shared_ptr<host::PluginLibrary> lib;
  try {
    lib = host::PluginLibrary::open(path);
  } catch (const sdk::Error& e) {
    report.fail(cat("loads, exports zkp_plugin_entry, negotiates an ABI version, init() succeeds: ", e.what(), " [",
                    zkp_status_name(e.status()), "]"));
    return nullptr;
  }
  const zkp_plugin_entry_t& e = lib->entry();
  report.pass(cat("loads, exports zkp_plugin_entry, its ABI [", e.abi_version_min, ", ", e.abi_version_max,
                  "] meets this host's ", host::host_abi_range(), " (using ", lib->abi_version(),
                  "), init() succeeds"));
  report.check(e.header.struct_size >= sizeof(zkp_plugin_entry_t) && e.header.struct_version >= 1,
               cat("entry header: struct_size ", e.header.struct_size, " covers the entry (",
                   sizeof(zkp_plugin_entry_t), "), struct_version ", e.header.struct_version));
  report.check(e.abi_version_min <= e.abi_version_max, "entry states an ABI range with min <= max");
  report.check(!empty(e.name) && !empty(e.version) && e.description != nullptr,
               "entry has a name, a version and a description", cat("name '", e.name, "', version '", e.version, "'"));
  const std::string expected = name_in_file(std::filesystem::path(path).filename().string());
  if (!expected.empty() && !empty(e.name)) {
    report.check(expected == e.name, cat("entry name '", e.name, "' is the short name its file gives"),
                 cat("the file says '", expected, "': the host would load it by a name it does not have"));
  }
  report.check(e.get_factory("zkp.no-such-kind/1") == nullptr && e.get_factory("zkp.prover/999") == nullptr &&
                   e.get_factory(nullptr) == nullptr,
               "get_factory answers NULL for an unknown id, an unknown revision and NULL");
  const bool known = lib->factory(ZKP_PROVER_FACTORY_ID) != nullptr || lib->factory(ZKP_PACER_FACTORY_ID) != nullptr;
  report.check(known, "offers a factory this host knows (" ZKP_PROVER_FACTORY_ID " or " ZKP_PACER_FACTORY_ID ")");
  return lib;
}

}  // namespace zkp::conformance
