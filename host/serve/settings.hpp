// What `zkpipe serve` reads from the [serve] section (or serve.KEY overrides) of the host
// configuration; everything else in that configuration builds the host, as for `prove`/`run`.
//
//   [serve]
//   socket = /run/zkpipe/zkpipe.sock   # the unix socket (mode 0600); always served
//   tcp = 127.0.0.1:7443               # also listen on TCP (port 0: any free port, logged)
//   token_file = /etc/zkpipe/token     # required with tcp: the bearer token TCP calls carry
//   tls_cert = /etc/zkpipe/cert.pem    # TLS on tcp: the certificate chain (PEM) ...
//   tls_key = /etc/zkpipe/key.pem      # ... and its private key (PEM); both or neither
//   max_message = 256MiB               # the largest request (witnesses) accepted
//   http = 127.0.0.1:9464              # GET / (dashboard), /metrics, /status, /healthz (loopback only)
//   key_budget = 8GiB                  # keys kept warm under this budget (LRU eviction)
//   grace = 30s                        # SIGTERM: how long work on a device may take to finish
//   log_format = text                  # or json: one JSON object per line (log_format.hpp)
//   queue_url = postgresql://...       # the fleet's job store, for Enqueue and JobStatus
#pragma once

#include <zkpipe/host/config.hpp>

#include "log_format.hpp"

#include <cstdint>
#include <string>

namespace zkp::serve {

struct Settings {
  std::string socket;      // a path
  std::string tcp;         // "HOST:PORT", or "" (no TCP listener)
  std::string token_file;  // "" unless tcp is set
  std::string tls_cert;    // "" (plaintext TCP) or a PEM file, with tls_key; only with tcp
  std::string tls_key;
  uint64_t max_message_bytes = 0;
  std::string http;           // "HOST:PORT" on loopback, or "" (no HTTP endpoint)
  uint64_t key_budget_bytes = 0;  // 0: no budget
  uint64_t grace_ms = 0;
  LogFormat log_format = LogFormat::text;
  std::string queue_url;  // "" (no job store: Enqueue and JobStatus refused) or a libpq URL

  // From config.serve_options. Throws zkp::sdk::Error (ZKP_ERR_INVALID_ARGUMENT) for an
  // unknown key, a bad value, tcp without token_file, or tls_cert/tls_key one without the other or
  // without tcp; the message says where it was written.
  static Settings from(const host::Config& config);
};

// Where serve.socket is when not set: $XDG_RUNTIME_DIR/zkpipe.sock, else /tmp/zkpipe-UID.sock
// (`zkpipe client` looks there too).
std::string default_socket();

// The keys and their meaning, for `zkpipe serve --help`.
const char* settings_help();

}  // namespace zkp::serve
