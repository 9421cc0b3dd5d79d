// The zkp_host_services_t handed to one plugin object: its log() writes to the
// "zkpipe" logger with the object's name in front ("[prover sim] ..."), and now_ns()
// is the pipeline clock.
#pragma once

#include <zkpipe/zkp_common.h>

#include <memory>
#include <string>

namespace zkp::host {

class PluginServices {
 public:
  // `label` prefixes every line the plugin logs, e.g. "prover sim".
  static std::unique_ptr<PluginServices> create(std::string label);

  // Owned by this object, valid while it lives (it must outlive the plugin object).
  const zkp_host_services_t* get() const { return &services_; }

 private:
  explicit PluginServices(std::string label);

  std::string label_;
  zkp_host_services_t services_;
};

}  // namespace zkp::host
