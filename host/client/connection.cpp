#include "connection.hpp"

#include "services/bearer_token.hpp"
#include "services/tls.hpp"

#include <zkpipe/sdk/error.hpp>
#include <zkpipe/zkp_client.h>

#include <optional>

namespace zkp::client {

namespace {

// serve.max_message's default: a proof of many partitions, or a witness of 2^24 scalars.
constexpr int kMaxMessageBytes = 256 << 20;

}  // namespace

Connection::Connection(ConnectionSettings settings) : settings_(std::move(settings)) {
  if (!settings_.token.empty()) {
    if (const std::optional<std::string> problem = services::bearer_token_problem(settings_.token)) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the bearer token cannot be sent: " + *problem);
    }
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  if (!settings_.tls_server_name.empty()) args.SetSslTargetNameOverride(settings_.tls_server_name);
  channel_ = grpc::CreateCustomChannel(settings_.target,
                                       settings_.tls_ca_file.empty() ? grpc::InsecureChannelCredentials()
                                                                     : services::tls_channel_credentials(settings_.tls_ca_file),
                                       args);
  stub_ = zkpipe::v1::Prover::NewStub(channel_);
}

void Connection::connect(std::chrono::milliseconds timeout) const {
  if (!channel_->WaitForConnected(std::chrono::system_clock::now() + timeout)) {
    // A TLS server reached in plaintext (or the other way round, or an untrusted
    // certificate) never connects either: say so, since nothing else will.
    throw sdk::Error(ZKP_CLIENT_ERR_UNAVAILABLE,
                     "no zkpipe serve answers on " + settings_.target + " (waited " + std::to_string(timeout.count()) +
                         " ms; a TCP server with TLS needs a CA file, one without refuses TLS)");
  }
}

std::unique_ptr<grpc::ClientContext> Connection::context() const {
  auto c = std::make_unique<grpc::ClientContext>();
  if (!settings_.token.empty()) c->AddMetadata("authorization", "Bearer " + settings_.token);
  if (settings_.call_timeout) c->set_deadline(std::chrono::system_clock::now() + *settings_.call_timeout);
  return c;
}

}  // namespace zkp::client
