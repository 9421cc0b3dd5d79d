#include "call_status.hpp"

#include <zkpipe/sdk/error.hpp>
#include <zkpipe/zkp_client.h>

#include <charconv>
#include <optional>
#include <string_view>

namespace zkp::client {

namespace {

const char* code_name(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK: return "OK";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    default: return "UNRECOGNIZED";
  }
}

// The server's zkp-status trailer, if it sent a number there.
std::optional<zkp_status_t> server_status(const grpc::ClientContext& context) {
  const auto& trailers = context.GetServerTrailingMetadata();
  const auto found = trailers.find("zkp-status");
  if (found == trailers.end()) return std::nullopt;
  const std::string_view text(found->second.data(), found->second.size());
  zkp_status_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == ZKP_OK) return std::nullopt;
  return value;
}

// The inverse of serve's status_mapping (host/serve/service.cpp), for a failure without the trailer.
zkp_status_t status_of_code(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK: return ZKP_OK;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE: return ZKP_ERR_INVALID_ARGUMENT;
    case grpc::StatusCode::NOT_FOUND: return ZKP_ERR_NOT_FOUND;
    case grpc::StatusCode::FAILED_PRECONDITION: return ZKP_ERR_ABI_MISMATCH;
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return ZKP_ERR_OUT_OF_MEMORY;
    case grpc::StatusCode::CANCELLED: return ZKP_ERR_CANCELLED;
    case grpc::StatusCode::UNIMPLEMENTED: return ZKP_ERR_UNSUPPORTED;
    case grpc::StatusCode::DEADLINE_EXCEEDED: return ZKP_ERR_TIMEOUT;
    case grpc::StatusCode::UNAVAILABLE: return ZKP_CLIENT_ERR_UNAVAILABLE;
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED: return ZKP_CLIENT_ERR_UNAUTHENTICATED;
    default: return ZKP_ERR_INTERNAL;
  }
}

}  // namespace

zkp_status_t status_of(const grpc::ClientContext& context, const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::OK: return ZKP_OK;
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::DEADLINE_EXCEEDED: return status_of_code(status.error_code());
    default: return server_status(context).value_or(status_of_code(status.error_code()));
  }
}

std::string describe(const char* call, const grpc::Status& status) {
  std::string text = call;
  text += ": ";
  text += code_name(status.error_code());
  if (!status.error_message().empty()) {
    text += ": ";
    text += status.error_message();
  }
  return text;
}

void check(const char* call, const grpc::ClientContext& context, const grpc::Status& status) {
  if (!status.ok()) throw sdk::Error(status_of(context, status), describe(call, status));
}

}  // namespace zkp::client
