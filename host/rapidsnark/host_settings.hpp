// The zkpipe host a librapidsnark prover object runs on, chosen by the environment (read at
// each groth16_prover_create, so a process can switch between objects):
//   ZKPIPE_RAPIDSNARK_BACKEND  prover plugin: cpu (the default), cuda, or a path to a .so
//   ZKPIPE_RAPIDSNARK_CONFIG   a zkpipe INI config file; the backend variable overrides its
//                              `prover`. Without a file the host also runs with log_level=warn:
//                              rapidsnark's library prints nothing, and a drop-in should not
//                              start logging on a caller's stderr.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace zkp::rapidsnark {

inline constexpr const char* kBackendVariable = "ZKPIPE_RAPIDSNARK_BACKEND";
inline constexpr const char* kConfigVariable = "ZKPIPE_RAPIDSNARK_CONFIG";

struct HostSettings {
  std::optional<std::string> config_file;
  std::vector<std::string> overrides;  // key=value, applied after the file
};

HostSettings host_settings_from_environment();

}  // namespace zkp::rapidsnark
