#include "serve_connection.hpp"

#include "tls.hpp"

#include <chrono>
#include <stdexcept>

namespace zkp::cli {

namespace {
constexpr int kMaxMessage = 256 << 20;  // proofs and witnesses of the largest partitions fit
}  // namespace

Connection::Connection(const std::string& target, std::string token, const std::string& tls_ca,
                       const std::string& tls_server_name)
    : target_(target), token_(std::move(token)) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessage);
  args.SetMaxSendMessageSize(kMaxMessage);
  if (!tls_server_name.empty()) args.SetSslTargetNameOverride(tls_server_name);
  channel_ = grpc::CreateCustomChannel(
      target, tls_ca.empty() ? grpc::InsecureChannelCredentials() : serve::tls_channel_credentials(tls_ca), args);
  stub_ = zkpipe::v1::Prover::NewStub(channel_);
}

void Connection::connect(int seconds) {
  if (!channel_->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(seconds))) {
    // A TLS server reached in plaintext (or the other way round, or an untrusted
    // certificate) never connects either: say so, since nothing else will.
    throw std::runtime_error("no zkpipe serve answers on " + target_ + " (waited " + std::to_string(seconds) +
                             " s; a TCP server with TLS needs --tls-ca, one without refuses it)");
  }
}

std::unique_ptr<grpc::ClientContext> Connection::context() const {
  auto c = std::make_unique<grpc::ClientContext>();
  if (!token_.empty()) c->AddMetadata("authorization", "Bearer " + token_);
  return c;
}

}  // namespace zkp::cli
