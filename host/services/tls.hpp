// TLS for the TCP listener, with gRPC's own TLS (its bundled BoringSSL/OpenSSL, nothing more to
// link): the server's certificate chain and key (serve.tls_cert, serve.tls_key), and the
// client's trust roots (`zkpipe client --tls-ca FILE`). PEM files: the server's at start and at
// SIGHUP (tls_identity.hpp), the client's per connection. The unix
// socket never uses TLS (its file mode is the access control), and neither does the HTTP
// endpoint, which is loopback only.
#pragma once

#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <string>

namespace zkp::services {

// The text of the PEM file `path` (`what` names it in errors: "serve.tls_cert"). Throws
// zkp::sdk::Error: ZKP_ERR_NOT_FOUND for a file that cannot be read, ZKP_ERR_INVALID_ARGUMENT
// for one with no "-----BEGIN " block.
std::string read_pem(const std::string& path, const std::string& what);

// TLS channel credentials that trust the certificates of `ca_file` (for a self-signed server
// certificate: that certificate itself). Throws as read_pem.
std::shared_ptr<grpc::ChannelCredentials> tls_channel_credentials(const std::string& ca_file);

}  // namespace zkp::services
