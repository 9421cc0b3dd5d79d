// A gRPC connection to `zkpipe serve` (zkpipe.v1.Prover) for the CLI's clients: `zkpipe
// client` and `zkpipe bench --socket/--address`. The stub is thread-safe (gRPC's); context()
// gives each call its own ClientContext carrying the bearer token.
#pragma once

#include "zkpipe/v1/prover.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

namespace zkp::cli {

class Connection {
 public:
  // `target`: "unix:PATH" or "HOST:PORT". `token` "": none. `tls_ca` "": plaintext; else TLS
  // trusting that PEM file, the certificate checked against `tls_server_name` or, when that
  // is "", the target's host.
  Connection(const std::string& target, std::string token, const std::string& tls_ca,
             const std::string& tls_server_name);
  // Waits up to `seconds` for the server (a script may start one just before); throws
  // std::runtime_error if none answers.
  void connect(int seconds);
  std::unique_ptr<grpc::ClientContext> context() const;
  zkpipe::v1::Prover::Stub* stub() { return stub_.get(); }
  const std::string& target() const { return target_; }

 private:
  std::string target_;
  std::string token_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<zkpipe::v1::Prover::Stub> stub_;
};

}  // namespace zkp::cli
