// Fuzz entry point: a config file's text through the INI reader (parse_ini_text) and every
// setting it yields through the config table (Config::load, as --config FILE then overrides
// would apply them). A bad file may be refused only with zkp::sdk::Error, which carries the
// status and the message a user sees; anything else escaping (std::out_of_range from a number
// parser, bad_alloc from a size) is a bug, and leaving it uncaught makes the fuzzer report it.
#include <zkpipe/host/config.hpp>
#include <zkpipe/sdk/error.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ini_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<std::string> settings;
    for (const zkp::host::IniSetting& s : zkp::host::parse_ini_text(text, "fuzz.ini")) {
      settings.push_back(s.key + "=" + s.value);
    }
    const zkp::host::Config config = zkp::host::Config::load(std::nullopt, settings);
    (void)zkp::host::to_c_options(config.prover_options);
  } catch (const zkp::sdk::Error&) {
  }
  return 0;
}
