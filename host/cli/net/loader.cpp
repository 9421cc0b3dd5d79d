// load_module (module.hpp): the program's side of the net module.
#include "net/module.hpp"

#include <zkpipe/sdk/error.hpp>

#include <boost/dll/runtime_symbol_info.hpp>

#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace zkp::cli::net {

namespace {

namespace fs = std::filesystem;

// The build tree keeps the module in lib/ beside bin/; an install in <libdir>, which
// ZKPIPE_CLI_NET_DIR gives relative to <bindir> (the same "../lib" unless the libdir is
// lib/x86_64-linux-gnu or the like).
fs::path find_module() {
  boost::dll::fs::error_code ec;
  const fs::path program = boost::dll::program_location(ec);
  const fs::path bin = ec ? fs::path() : program.parent_path();
  fs::path first;
  for (const char* dir : {"../lib", ZKPIPE_CLI_NET_DIR}) {
    const fs::path candidate = (bin / dir / kModuleFile).lexically_normal();
    std::error_code exists_ec;
    if (fs::exists(candidate, exists_ec)) return candidate;
    if (first.empty()) first = candidate;
  }
  return first;  // dlopen reports it missing, by this name
}

const Module& open_module() {
  const fs::path path = find_module();
  // RTLD_LOCAL: the module's gRPC, protobuf and libpq stay out of the program's namespace.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    throw sdk::Error(ZKP_ERR_NOT_FOUND, "cannot load " + path.string() + ", which this command needs: " +
                                            (why != nullptr ? why : "unknown error"));
  }
  using Entry = const Module* (*)();
  const auto entry = reinterpret_cast<Entry>(::dlsym(handle, kEntrySymbol));
  const Module* module = entry != nullptr ? entry() : nullptr;
  if (module == nullptr || module->size != sizeof(Module) || std::string(module->version) != ZKPIPE_VERSION) {
    throw sdk::Error(ZKP_ERR_ABI_MISMATCH, path.string() + " is not the module of this zkpipe " ZKPIPE_VERSION
                                           " (another build's, or not zkpipe's); reinstall zkpipe");
  }
  return *module;  // never unloaded: see load_module
}

}  // namespace

const Module& load_module() {
  static const Module& module = open_module();  // a throw leaves it to the next call
  return module;
}

}  // namespace zkp::cli::net
