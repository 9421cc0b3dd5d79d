// One channel to a `zkpipe serve` (zkpipe.v1.Prover), as every client of it opens one: the
// address (a unix socket or HOST:PORT), the bearer token each call carries, TLS or not.
// libzkpipe_client's C API (c_api.cpp) and `zkpipe client` (host/client/client_command.cpp) both
// talk through this class, so they connect, authenticate and fail the same way.
//
// Threads: a Connection is immutable once made; stub() and context() may be called from any
// thread at once (gRPC's channel and stub are thread-safe).
#pragma once

#include "services/address.hpp"

#include "zkpipe/v1/prover.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace zkp::client {

struct ConnectionSettings {
  std::string target;           // a gRPC target: "unix:PATH" or "HOST:PORT"
  std::string token;            // "": calls carry no authorization metadata (services/bearer_token.hpp)
  std::string tls_ca_file;      // "": plaintext; else TLS trusting this PEM file
  std::string tls_server_name;  // "": the target's host
  std::optional<std::chrono::milliseconds> call_timeout;  // each call's deadline; none: no deadline
};

class Connection {
 public:
  // Makes the channel (no I/O yet). Throws sdk::Error for an unreadable or malformed CA file, or
  // a token no call could carry (ZKP_ERR_INVALID_ARGUMENT, saying which byte: gRPC would abort()
  // the process at the first call).
  explicit Connection(ConnectionSettings settings);

  // Waits up to `timeout` for the server; throws sdk::Error(ZKP_CLIENT_ERR_UNAVAILABLE) if none.
  void connect(std::chrono::milliseconds timeout) const;

  // A context for one call: the bearer token, the call deadline.
  std::unique_ptr<grpc::ClientContext> context() const;

  zkpipe::v1::Prover::Stub& stub() const { return *stub_; }
  const std::string& target() const { return settings_.target; }

 private:
  ConnectionSettings settings_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<zkpipe::v1::Prover::Stub> stub_;
};

}  // namespace zkp::client
