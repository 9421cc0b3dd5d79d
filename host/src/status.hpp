// A status code and its message: what a plugin call or a pipeline stage ended with.
// Used on the hot path (workers, synthesis threads), where failures are results, not
// exceptions.
#pragma once

#include <zkpipe/zkp_common.h>

#include <string>

namespace zkp::host {

struct Status {
  zkp_status_t code = ZKP_OK;
  std::string message;

  bool ok() const { return code == ZKP_OK; }

  // The outcome of a plugin call that returned `code` and filled `err`. A plugin that
  // fails without a message still yields a readable one (the status name).
  static Status from_call(zkp_status_t code, const zkp_error_t& err, const std::string& what) {
    if (code == ZKP_OK) return {};
    const std::string detail = err.message[0] != '\0' ? err.message : zkp_status_name(code);
    return {code, what + ": " + detail};
  }
};

// A failure of the device, not of the input: ZKP_ERR_DEVICE (a fault, a device process that
// died) or ZKP_ERR_DEVICE_LOST (the device is unusable for good in the process that proved).
// Such a partition may be retried on another device (device_retries).
inline bool device_failure(zkp_status_t code) { return code == ZKP_ERR_DEVICE || code == ZKP_ERR_DEVICE_LOST; }

}  // namespace zkp::host
