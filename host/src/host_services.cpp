#include "host_services.hpp"

#include <zkpipe/host/clock.hpp>
#include <zkpipe/host/logging.hpp>

namespace zkp::host {

namespace {

void log_thunk(void* host_data, zkp_log_level_t level, const char* message) {
  try {
    const auto* label = static_cast<const std::string*>(host_data);
    log().log(from_plugin_level(level), "[{}] {}", *label, message == nullptr ? "" : message);
  } catch (...) {
    // Nothing crosses back into the plugin; a lost log line is the lesser harm.
  }
}

uint64_t now_thunk(void*) { return now_ns(); }

}  // namespace

std::unique_ptr<PluginServices> PluginServices::create(std::string label) {
  return std::unique_ptr<PluginServices>(new PluginServices(std::move(label)));
}

PluginServices::PluginServices(std::string label) : label_(std::move(label)), services_{} {
  services_.header = ZKP_HEADER_INIT(zkp_host_services_t);
  services_.host_data = &label_;
  services_.log = &log_thunk;
  services_.now_ns = &now_thunk;
}

}  // namespace zkp::host
