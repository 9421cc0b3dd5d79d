// Who may call: a unix-socket peer always (the socket's file mode is the access control); a
// TCP peer only with the metadata "authorization: Bearer TOKEN", TOKEN read from
// serve.token_file at start. A refusal is logged with the method and the peer, and counted
// (Auth::refusals: /metrics' zkpipe_auth_refusals_total and /status's auth_refusals, by reason).
#pragma once

#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace zkp::serve {

// Why Auth refused a call, as zkpipe_auth_refusals_total's `reason` label names it.
enum class AuthRefusal {
  no_token,     // no authorization metadata (or no TCP listener: nothing to compare it with)
  not_bearer,   // authorization is not "Bearer TOKEN"
  wrong_token,  // another token
};
const char* auth_refusal_label(AuthRefusal reason);

class Auth {
 public:
  Auth() = default;  // no TCP: every (unix) peer is served, any other refused
  // Reads the token (services::read_token_file: surrounding whitespace trimmed). Throws
  // zkp::sdk::Error: ZKP_ERR_NOT_FOUND for a missing or unreadable file, ZKP_ERR_INVALID_ARGUMENT
  // for a file that is not regular, an empty token, or one with a byte no token may hold (a
  // newline inside it, a control byte, a non-ASCII letter), naming the file.
  static Auth from_token_file(const std::string& path);

  // Whether an "Authorization" value is "Bearer TOKEN" for `token`, compared in time that depends
  // on the lengths only (the HTTP endpoint's serve.http_token_file check uses it too).
  static bool is_bearer(std::string_view value, std::string_view token);

  // OK, or UNAUTHENTICATED (logged and counted). [any-thread]
  grpc::Status check(const grpc::ServerContext& context, const char* method) const;

  // The calls refused so far, by auth_refusal_label, every reason (0 until seen). Counted per
  // process, not per Auth: the Auth that counts is replaced at SIGHUP, and its counts are the
  // server's. [any-thread]
  static std::map<std::string, uint64_t> refusals();

 private:
  std::string token_;  // "" when there is no TCP listener
};

}  // namespace zkp::serve
