#include "auth.hpp"


#include "services/bearer_token.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <array>
#include <atomic>
#include <string_view>

#include <sys/stat.h>

namespace zkp::serve {

namespace {

constexpr std::string_view kBearer = "Bearer ";
constexpr size_t kAuthRefusalReasons = 3;  // AuthRefusal's values

// Refusals by AuthRefusal, for the whole process (Auth::refusals).
std::array<std::atomic<uint64_t>, kAuthRefusalReasons> g_refusals{};

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
  g_refusals.at(static_cast<size_t>(reason)).fetch_add(1, std::memory_order_relaxed);
  host::log().warn("serve: refused {} from {}: {}", method, peer, why);
  return {grpc::StatusCode::UNAUTHENTICATED, std::string("zkpipe serve: ") + why};
}

const char* auth_refusal_label(AuthRefusal reason) {
  switch (reason) {
    case AuthRefusal::no_token: return "no_token";
    case AuthRefusal::not_bearer: return "not_bearer";
    case AuthRefusal::wrong_token: return "wrong_token";
  }
  return "unknown";
}

std::map<std::string, uint64_t> Auth::refusals() {
  std::map<std::string, uint64_t> out;
  for (size_t i = 0; i < g_refusals.size(); ++i) {
    out[auth_refusal_label(static_cast<AuthRefusal>(i))] = g_refusals[i].load(std::memory_order_relaxed);
  }
  return out;
}

}  // namespace zkp::serve
