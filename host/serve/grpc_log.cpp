#include "grpc_log.hpp"

#include <zkpipe/host/logging.hpp>

#include <grpc/support/log.h>

namespace zkp::serve {

namespace {

void to_zkpipe_log(gpr_log_func_args* args) {
  const char* file = args->file != nullptr ? args->file : "?";
  const char* message = args->message != nullptr ? args->message : "";
  switch (args->severity) {
    case GPR_LOG_SEVERITY_DEBUG: host::log().debug("grpc: {}:{}: {}", file, args->line, message); break;
    case GPR_LOG_SEVERITY_INFO: host::log().info("grpc: {}:{}: {}", file, args->line, message); break;
    case GPR_LOG_SEVERITY_ERROR: host::log().error("grpc: {}:{}: {}", file, args->line, message); break;
  }
}

}  // namespace

void route_grpc_log_lines() { gpr_set_log_function(&to_zkpipe_log); }

}  // namespace zkp::serve
