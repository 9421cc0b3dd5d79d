// A thin C++ view of the zkp_host_services_t a plugin object is created with.
#pragma once

#include <zkpipe/zkp_common.h>

#include <string>

namespace zkp::sdk {

class HostServices {
 public:
  explicit HostServices(const zkp_host_services_t* host) : host_(host) {}

  void log(zkp_log_level_t level, const std::string& message) const noexcept {
    if (host_ != nullptr && host_->log != nullptr) host_->log(host_->host_data, level, message.c_str());
  }
  void info(const std::string& m) const noexcept { log(ZKP_LOG_INFO, m); }
  void warn(const std::string& m) const noexcept { log(ZKP_LOG_WARN, m); }
  void error(const std::string& m) const noexcept { log(ZKP_LOG_ERROR, m); }

  // The host's pipeline clock, or 0 when the host offers none.
  uint64_t now_ns() const noexcept {
    return host_ != nullptr && host_->now_ns != nullptr ? host_->now_ns(host_->host_data) : 0;
  }

 private:
  const zkp_host_services_t* host_;
};

}  // namespace zkp::sdk
