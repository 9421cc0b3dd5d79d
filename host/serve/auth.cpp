#include "auth.hpp"

#include "metrics.hpp"

#include "services/bearer_token.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <string_view>

#include <sys/stat.h>

namespace zkp::serve {

namespace {

constexpr std::string_view kBearer = "Bearer ";

// Compares in time that depends on the lengths only, so the token is not guessed byte by byte.
bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

bool Auth::is_bearer(std::string_view value, std::string_view token) {
  return !token.empty() && value.starts_with(kBearer) && same_secret(value.substr(kBearer.size()), token);
}

Auth Auth::from_token_file(const std::string& path) {
  Auth auth;
  auth.token_ = services::read_token_file(path, "serve.token_file");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    host::log().warn("serve.token_file '{}' is readable by others (mode {:o}); chmod 600 it", path, st.st_mode & 0777);
  }
  return auth;
}

grpc::Status Auth::check(const grpc::ServerContext& context, const char* method) const {
  const std::string peer = context.peer();
  if (peer.starts_with("unix:")) return grpc::Status::OK;
  const char* why = nullptr;
  AuthRefusal reason = AuthRefusal::no_token;
  if (token_.empty()) {
    why = "no TCP listener is configured";  // not reached: only unix peers can connect then
  } else {
    const auto& metadata = context.client_metadata();
    const auto it = metadata.find("authorization");
    if (it == metadata.end()) {
      why = "no authorization metadata";
    } else {
      const std::string_view value(it->second.data(), it->second.size());
      if (!value.starts_with(kBearer)) {
        why = "authorization is not 'Bearer TOKEN'";
        reason = AuthRefusal::not_bearer;
      } else if (!same_secret(value.substr(kBearer.size()), token_)) {
        why = "wrong bearer token";
        reason = AuthRefusal::wrong_token;
      }
    }
  }
  if (why == nullptr) return grpc::Status::OK;
  Metrics::count_auth_refusal(reason);  // zkpipe_auth_refusals_total
  host::log().warn("serve: refused {} from {}: {}", method, peer, why);
  return {grpc::StatusCode::UNAUTHENTICATED, std::string("zkpipe serve: ") + why};
}

}  // namespace zkp::serve
