// What `zkpipe serve` reads from the [serve] section (or serve.KEY overrides) of the host
// configuration; everything else in that configuration builds the host, as for `prove`/`run`.
// The keys, their defaults and meanings are declared once, in serve_options.cpp
// (`zkpipe serve --help` and the README's table under "## zkpipe serve" list them):
//
//   [serve]
//   socket = /run/zkpipe/zkpipe.sock   # the unix socket (mode 0600); always served
//   tcp = 127.0.0.1:7443               # also listen on TCP (port 0: any free port, logged)
//   token_file = /etc/zkpipe/token     # required with tcp: the bearer token TCP calls carry
//   tls_cert = /etc/zkpipe/cert.pem    # TLS on tcp: the certificate chain (PEM) ...
//   tls_key = /etc/zkpipe/key.pem      # ... and its private key (PEM); both or neither
#pragma once

#include <zkpipe/host/config.hpp>

#include "log_format.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace zkp::serve {

// Each field's default is its key's in serve_options(), applied by from(); the initializers
// below are no second list of defaults, they only keep every field initialized.
struct Settings {
  std::string socket;      // a path
  std::string tcp;         // "HOST:PORT", or "" (no TCP listener)
  std::string token_file;  // "" unless tcp is set
  std::string tls_cert;    // "" (plaintext TCP) or a PEM file, with tls_key; only with tcp
  std::string tls_key;
  uint64_t max_message_bytes = 0;
  uint32_t max_waiting_calls = 0;   // Prove and Await calls open at once (each holds a thread)
  uint64_t request_budget_bytes = 0;  // what open jobs' requests may hold at once
  std::string http;           // "HOST:PORT" on loopback, or "" (no HTTP endpoint)
  std::string http_token_file;  // "": the HTTP pages are open to every local user
  uint64_t key_budget_bytes = 0;  // 0: no budget
  uint64_t grace_ms = 0;
  LogFormat log_format = LogFormat::text;
  std::string queue_url;  // "" (no job store: Enqueue and JobStatus refused) or a libpq URL
  // The folders whose files LoadKey and Enqueue may name (services/path_policy.hpp). Empty: any
  // path for unix-socket callers, none for TCP callers.
  std::vector<std::string> key_dirs;
  std::vector<std::string> generator_dirs;  // serve.generator_dirs: where LoadKey's witness generators may lie

  // serve_options()' defaults, then config.serve_options over them. Throws zkp::sdk::Error
  // (ZKP_ERR_INVALID_ARGUMENT) for an unknown key, a bad value (naming what the key expects), tcp
  // without token_file, or tls_cert/tls_key one without the other or without tcp; the message
  // says where it was written.
  static Settings from(const host::Config& config);
};

// Where serve.socket is when not set: $XDG_RUNTIME_DIR/zkpipe.sock, else /tmp/zkpipe-UID.sock
// (`zkpipe client` looks there too).
std::string default_socket();

// The keys, their defaults (this machine's, where they depend on it) and their meaning, for
// `zkpipe serve --help`.
std::string settings_help();

}  // namespace zkp::serve
