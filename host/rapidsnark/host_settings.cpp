#include "host_settings.hpp"

#include <cstdlib>

namespace zkp::rapidsnark {
namespace {

constexpr const char* kDefaultBackend = "cpu";
constexpr const char* kQuietLogLevel = "log_level=warn";

std::optional<std::string> variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

}  // namespace

HostSettings host_settings_from_environment() {
  HostSettings s;
  s.config_file = variable(kConfigVariable);
  const std::optional<std::string> backend = variable(kBackendVariable);
  if (backend) {
    s.overrides.push_back("prover=" + *backend);
  } else if (!s.config_file) {
    s.overrides.push_back(std::string("prover=") + kDefaultBackend);
  }
  if (!s.config_file) s.overrides.push_back(kQuietLogLevel);
  return s;
}

}  // namespace zkp::rapidsnark
