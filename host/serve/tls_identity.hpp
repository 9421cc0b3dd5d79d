// The TCP listener's TLS identity (serve.tls_cert, serve.tls_key), replaceable while the
// server runs: SIGHUP reads the two files again and, when they hold a certificate chain and
// the private key of its first certificate, new TLS handshakes use them within a second.
// Connections already open keep the session they negotiated, so nothing is dropped.
//
// How: gRPC's FileWatcherCertificateProvider watches a private copy of the pair, under a
// folder of this process's own (mode 0700) whose `current` symlink names the live version.
// A reload writes the new version beside it and swaps the symlink with one rename, the atomic
// update gRPC asks of its callers (tls_certificate_provider.h), so no handshake can see the
// key of one pair with the certificate of another. The operator's own files are read only at
// start and at SIGHUP: replacing them does nothing until the signal.
#pragma once

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/security/tls_certificate_provider.h>

#include <memory>
#include <mutex>
#include <string>

namespace zkp::serve {

class TlsIdentity {
 public:
  // Reads and checks the pair (as reload does). Throws zkp::sdk::Error: ZKP_ERR_NOT_FOUND for
  // a file that cannot be read, ZKP_ERR_INVALID_ARGUMENT for one that is not PEM, a key that is
  // not the certificate's, or a private folder that cannot be made.
  TlsIdentity(const std::string& cert_file, const std::string& key_file);
  ~TlsIdentity();  // removes the private copy

  // Removes the private copy (the key's too) now, for an exit that runs no destructor (serve's
  // grace-time exit, std::_Exit): handshakes after it fail. Idempotent; never throws.
  void remove_private_copy() noexcept;
  TlsIdentity(const TlsIdentity&) = delete;
  TlsIdentity& operator=(const TlsIdentity&) = delete;

  // For the listener (no client certificate asked for: callers carry the bearer token).
  std::shared_ptr<grpc::ServerCredentials> credentials() const { return credentials_; }

  // Reads the files again and installs them. Throws as the constructor; the live pair is then
  // unchanged.
  void reload(const std::string& cert_file, const std::string& key_file);

  // How long after reload() new handshakes may still get the old pair (gRPC's poll interval).
  static constexpr unsigned kRefreshSeconds = 1;

 private:
  void install(const std::string& cert_pem, const std::string& key_pem);

  std::mutex mu_;
  std::string dir_;  // the private folder
  unsigned version_ = 0;
  std::shared_ptr<grpc::experimental::FileWatcherCertificateProvider> provider_;
  std::shared_ptr<grpc::ServerCredentials> credentials_;
};

}  // namespace zkp::serve
