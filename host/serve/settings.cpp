#include "settings.hpp"

#include "address.hpp"

#include <zkpipe/host/byte_size.hpp>
#include <zkpipe/sdk/error.hpp>

#include <cctype>
#include <optional>
#include <limits>

namespace zkp::serve {

namespace {

using sdk::Error;

// gRPC takes the largest message as an int.
constexpr uint64_t kMaxMessageLimit = std::numeric_limits<int>::max();

std::string where(const host::PluginOption& o) {
  return o.origin.empty() ? "serve." + o.key : o.origin + ": serve." + o.key;
}

// HOST:PORT with HOST a loopback name or address.
bool loopback(const std::string& address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size()) return false;
  const std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 || std::stoul(port) > 65535) return false;
  return host == "localhost" || host == "[::1]" || host.rfind("127.", 0) == 0;
}

// "500ms", "30s", "2m", or a plain number of milliseconds.
std::optional<uint64_t> parse_duration_ms(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) ++digits;
  if (digits == 0 || digits > 9) return std::nullopt;
  const uint64_t n = std::stoull(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  if (unit.empty() || unit == "ms") return n;
  if (unit == "s") return n * 1000;
  if (unit == "m") return n * 60000;
  return std::nullopt;
}

}  // namespace

// The clients' default too (host/client/address.hpp): one place says where a server listens.
std::string default_socket() { return client::default_socket(); }

const char* settings_help() {
  return "Serve keys ([serve] section of the config, or serve.KEY=VALUE):\n"
         "  serve.socket = $XDG_RUNTIME_DIR/zkpipe.sock (else /tmp/zkpipe-UID.sock)\n"
         "      the unix socket, created with mode 0600; always served, without authentication\n"
         "  serve.tcp = (none)\n"
         "      also listen on HOST:PORT (port 0: a free port, logged); every TCP call must carry\n"
         "      'authorization: Bearer TOKEN' metadata\n"
         "  serve.token_file = (none)\n"
         "      the file holding TOKEN (surrounding whitespace ignored); required with serve.tcp\n"
         "  serve.tls_cert = (none), serve.tls_key = (none)\n"
         "      TLS on serve.tcp: the certificate chain and its private key, PEM files (both or\n"
         "      neither; read at start and again at SIGHUP: new connections get a renewed pair\n"
         "      within a second, open ones go on; a pair that does not match is refused). Without them TCP is\n"
         "      plaintext and the token travels in clear: loopback or a private network only.\n"
         "      Clients: zkpipe client --tls-ca FILE (the CA, or the self-signed certificate)\n"
         "  serve.max_message = 256MiB\n"
         "      the largest request accepted (a job's witnesses travel in one message)\n"
         "  serve.http = (none)\n"
         "      also serve GET / (the dashboard), /metrics (Prometheus text), /status (JSON) and\n"
         "      /healthz over plain HTTP on HOST:PORT (port 0: a free port, logged); without\n"
         "      authentication or TLS, so loopback only (127.0.0.1, ::1 or localhost)\n"
         "  serve.key_budget = (none)\n"
         "      keep loaded keys within this many bytes (each charged its file's size): a LoadKey\n"
         "      that would exceed it evicts idle keys, least recently used first (logged, counted),\n"
         "      or fails naming the budget; a key with jobs in flight is never evicted\n"
         "  serve.grace = 30s\n"
         "      at SIGTERM, queued work is cancelled and work on a device gets this long to finish\n"
         "      (ms, s or m); Await streams get every outcome. Past it the server logs what is\n"
         "      still on a device and exits 1 without waiting for it\n"
         "  serve.log_format = text\n"
         "      text, or json: one JSON object per line on stderr (time, level, logger, message, and\n"
         "      job, partition, gpu_index, key where the message names them); takes a restart\n"
         "  serve.queue_url = (none)\n"
         "      the fleet's PostgreSQL job store (a libpq URL; `zkpipe queue init` makes it): Enqueue\n"
         "      puts jobs there for `zkpipe worker`s, JobStatus reads them back; connected at start\n";
}

Settings Settings::from(const host::Config& config) {
  Settings s;
  s.socket = default_socket();
  s.max_message_bytes = 256ull << 20;
  s.grace_ms = 30000;
  std::string tcp_origin;
  std::string tls_origin;
  for (const host::PluginOption& o : config.serve_options) {
    if (o.key == "socket") {
      if (o.value.empty()) throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + " is empty: a unix socket path is needed");
      s.socket = o.value;
    } else if (o.key == "tcp") {
      if (!o.value.empty() && o.value.rfind(':') == std::string::npos) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + " = '" + o.value + "' is invalid: expected HOST:PORT");
      }
      s.tcp = o.value;
      tcp_origin = where(o);
    } else if (o.key == "token_file") {
      s.token_file = o.value;
    } else if (o.key == "tls_cert") {
      s.tls_cert = o.value;
      tls_origin = where(o);
    } else if (o.key == "tls_key") {
      s.tls_key = o.value;
      tls_origin = where(o);
    } else if (o.key == "max_message") {
      const auto bytes = host::parse_byte_size(o.value);
      if (!bytes || *bytes == 0 || *bytes > kMaxMessageLimit) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT,
                    where(o) + " = '" + o.value + "' is invalid: expected a byte size from 1 B to 2 GiB - 1");
      }
      s.max_message_bytes = *bytes;
    } else if (o.key == "http") {
      if (!o.value.empty() && !loopback(o.value)) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + " = '" + o.value +
                                                  "' is invalid: expected 127.0.0.1:PORT, [::1]:PORT or localhost:PORT "
                                                  "(the HTTP endpoint has no authentication)");
      }
      s.http = o.value;
    } else if (o.key == "key_budget") {
      const auto bytes = host::parse_byte_size(o.value);
      if (!bytes) throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + " = '" + o.value + "' is invalid: expected a byte size");
      s.key_budget_bytes = *bytes;
    } else if (o.key == "grace") {
      const auto ms = parse_duration_ms(o.value);
      if (!ms) throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + " = '" + o.value + "' is invalid: expected e.g. 500ms, 30s, 2m");
      s.grace_ms = *ms;
    } else if (o.key == "queue_url") {
      s.queue_url = o.value;
    } else if (o.key == "log_format") {
      const auto format = parse_log_format(o.value);
      if (!format) throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + " = '" + o.value + "' is invalid: expected text or json");
      s.log_format = *format;
    } else {
      throw Error(ZKP_ERR_INVALID_ARGUMENT,
                  where(o) + ": unknown key (known: serve.socket, serve.tcp, serve.token_file, serve.max_message, "
                             "serve.http, serve.key_budget, serve.grace, serve.log_format, serve.queue_url)");
    }
  }
  if (!s.tcp.empty() && s.token_file.empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, tcp_origin + " needs serve.token_file: TCP calls must carry a bearer token");
  }
  if (s.tls_cert.empty() != s.tls_key.empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, tls_origin + ": serve.tls_cert and serve.tls_key go together (a certificate and its key)");
  }
  if (!s.tls_cert.empty() && s.tcp.empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, tls_origin + " is for the TCP listener, and serve.tcp is not set");
  }
  return s;
}

}  // namespace zkp::serve
