// The gRPC server of `zkpipe serve`: the unix socket (mode 0600, a stale socket file of a
// server that is gone replaced, a live one refused) and, when configured, TCP (with TLS when
// serve.tls_cert/tls_key are set); the Service; and, when serve.http is set, the HTTP endpoint
// of the dashboard (/), /metrics, /status and /healthz.
#pragma once

#include "services/observe/http_server.hpp"
#include "service.hpp"
#include "settings.hpp"
#include "tls_identity.hpp"

#include <grpcpp/server.h>

#include <memory>
#include <mutex>
#include <string>

namespace zkp::serve {

class Server {
 public:
  // Starts listening. Throws zkp::sdk::Error when a listener cannot be made. `host` must
  // outlive the server.
  // `config`: what the host and the settings were made from; a reload names every key that
  // differs from it and cannot be applied.
  Server(host::Host& host, const Settings& settings, host::Config config);
  ~Server();  // shutdown(ZKP_SHUTDOWN_CANCEL) if that was not done: the jobs' callbacks use the service
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The TCP address actually bound ("127.0.0.1:40123"), or "".
  const std::string& tcp_address() const { return tcp_bound_; }
  // The HTTP address actually bound, or "".
  std::string http_address() const { return http_ ? http_->address() : ""; }

  // SIGHUP: applies what can change without a restart from freshly read settings: the log
  // level (`config`'s), the bearer token (re-read from token_file), and with TLS the
  // certificate and key (re-read from tls_cert/tls_key: new handshakes use them, open
  // connections go on). Logs what it applied, and names each changed setting that needs a
  // restart. Throws zkp::sdk::Error (nothing applied) for a token file that cannot be read,
  // or a certificate and key that cannot be read or do not belong together.
  void reload(const host::Config& config, const Settings& settings);

  // SIGTERM: refuses new work, cancels what is queued, and gives what is on a device
  // settings.grace_ms to finish; then as shutdown(). Returns false if the grace time passed
  // with work still on a device: the caller should exit at once (the host's threads are
  // still busy; the socket file and the TLS key's private copy are removed already).
  bool drain();

  // Refuses new work, ends the host's jobs (`mode`: what is on a device finishes; ZKP_SHUTDOWN_DRAIN
  // also finishes what is queued), lets open calls answer (Await streams get every outcome),
  // then stops listening and removes the socket file. Not on a gRPC thread.
  void shutdown(zkp_shutdown_mode_t mode);

 private:
  void stop_listening();
  observe::HttpResponse page(const observe::HttpRequest& request);  // [the HTTP thread]

  host::Host& host_;
  Settings settings_;
  bool shut_down_ = false;
  std::string socket_path_;
  std::string tcp_bound_;
  std::unique_ptr<TlsIdentity> tls_;  // with serve.tls_cert/tls_key
  std::unique_ptr<Service> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<observe::HttpServer> http_;
  const host::Config started_config_;
  // Threads beyond serve.max_waiting_calls for the calls that return at once and gRPC's pollers,
  // so that open Awaits can never leave Health or Cancel without a thread.
  static constexpr uint32_t kShortCallThreads = 32;
  std::mutex http_token_mu_;  // page() reads it, reload() replaces it
  std::string http_token_;    // serve.http_token_file's token; "": the pages are open
};

}  // namespace zkp::serve
