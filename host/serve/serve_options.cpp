// `zkpipe serve`'s keys (serve_options.hpp). To add one: a Settings field and an entry here;
// Settings::from, `zkpipe serve --help` and the README's table follow (the README test,
// tests/host/readme_tables.sh, says how to regenerate the table).
#include "serve_options.hpp"

#include <zkpipe/host/byte_size.hpp>
#include <zkpipe/host/config_table.hpp>

#include "services/address.hpp"
#include "services/duration.hpp"


#include <cctype>
#include <limits>
#include <optional>

namespace zkp::serve {

namespace {

// gRPC takes the largest message as an int.
constexpr uint64_t kMaxMessageLimit = std::numeric_limits<int>::max();


// "500ms", "30s", "2m", "1h", or a plain number of milliseconds, at most 30 days: the parser of
// every duration flag (services/duration.hpp).
std::optional<uint64_t> parse_duration_ms(const std::string& text) {
  const auto ms = services::parse_duration(text, services::DurationUnit::milliseconds);
  if (!ms) return std::nullopt;
  return static_cast<uint64_t>(ms->count());
}

// A key whose every value is accepted (a path, a URL; "" leaves it unset).
ServeOption any_text(const char* key, std::string Settings::*field, std::string expected, std::string meaning) {
  return {key, "", nullptr, std::move(expected),
          [field](Settings& s, const std::string& value) {
            s.*field = value;
            return true;
          },
          std::move(meaning)};
}

// Where the clients look too (host/services/address.hpp); the words are how the README says it.
const host::MachineDefault kSocket{"$XDG_RUNTIME_DIR/zkpipe.sock, else /tmp/zkpipe-UID.sock", default_socket,
                                   default_socket};

}  // namespace

const std::vector<ServeOption>& serve_options() {
  static const std::vector<ServeOption> options{
      {"socket", nullptr, &kSocket, "a unix socket path (not empty)",
       [](Settings& s, const std::string& text) {
         if (text.empty()) return false;
         s.socket = text;
         return true;
       },
       "the unix socket, created with mode 0600; always served, without authentication"},
      {"tcp", "", nullptr, "HOST:PORT",
       [](Settings& s, const std::string& text) {
         if (!text.empty() && text.rfind(':') == std::string::npos) return false;
         s.tcp = text;
         return true;
       },
       "also listen on HOST:PORT (port 0: a free port, logged); every TCP call must carry 'authorization: Bearer "
       "TOKEN' metadata"},
      any_text("token_file", &Settings::token_file, "a path",
           "the file holding TOKEN (surrounding whitespace ignored); required with serve.tcp"),
      any_text("tls_cert", &Settings::tls_cert, "a path",
           "TLS on serve.tcp: the certificate chain, a PEM file, with serve.tls_key (both or neither; read at start "
           "and again at SIGHUP: new connections get a renewed pair within a second, open ones go on; a pair that "
           "does not match is refused). Without them TCP is plaintext and the token travels in clear: loopback or a "
           "private network only. Clients: zkpipe client --tls-ca FILE (the CA, or the self-signed certificate)"),
      any_text("tls_key", &Settings::tls_key, "a path", "the private key of serve.tls_cert, a PEM file"),
      {"max_message", "256MiB", nullptr, "a byte size from 1 B to 2 GiB - 1",
       [](Settings& s, const std::string& text) {
         const auto bytes = host::parse_byte_size(text);
         if (!bytes || *bytes == 0 || *bytes > kMaxMessageLimit) return false;
         s.max_message_bytes = *bytes;
         return true;
       },
       "the largest message accepted: a Submit or Prove (whose witnesses travel in one message, briefly held "
       "two to three times over while it is received and parsed) or one piece of a SubmitStream. The client "
       "library and zkpipe client send a job of more than 1 MiB of witnesses by SubmitStream, in 256 KiB pieces, "
       "whatever its size"},
      {"max_waiting_calls", "256", nullptr, "a count from 1 to 4096",
       [](Settings& s, const std::string& text) {
         if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string::npos) return false;
         const unsigned long n = std::stoul(text);
         if (n < 1 || n > 4096) return false;
         s.max_waiting_calls = static_cast<uint32_t>(n);
         return true;
       },
       "Prove and Await calls open at once, each waiting for its job on a server thread of its own; one beyond "
       "them is refused with RESOURCE_EXHAUSTED. The server's threads are bounded by this plus a reserve that "
       "keeps the short calls (Health, Status, Cancel, LoadKey, Submit) answered"},
      {"request_budget", "2GiB", nullptr, "a byte size, at least serve.max_message",
       [](Settings& s, const std::string& text) {
         const auto bytes = host::parse_byte_size(text);
         if (!bytes || *bytes == 0) return false;
         s.request_budget_bytes = *bytes;
         return true;
       },
       "what the open jobs' requests (their witnesses or synthesized partitions, held until each job ends) may "
       "hold at once, every job together; a Submit or Prove past it is refused with RESOURCE_EXHAUSTED, and a "
       "SubmitStream past it from its first piece, before its witnesses' bytes arrive"},
      {"http", "", nullptr,
       "127.0.0.1:PORT (any 127.x.y.z), [::1]:PORT or localhost:PORT (plain HTTP: loopback only)",
       [](Settings& s, const std::string& text) {
         if (!text.empty() && !services::is_loopback_address(text)) return false;
         s.http = text;
         return true;
       },
       "also serve GET / (the dashboard), /metrics (Prometheus text), /status (JSON) and /healthz over plain HTTP "
       "on HOST:PORT (port 0: a free port, logged); without authentication or TLS, so loopback only (127.0.0.1, "
       "::1 or localhost)"},
      any_text("http_token_file", &Settings::http_token_file, "a path",
               "when set, /, /metrics and /status answer only requests carrying `Authorization: Bearer TOKEN`, TOKEN "
               "from this file (Prometheus: authorization.credentials_file); /healthz stays open. Without it every "
               "local user can read the pages (key paths, failure messages). Re-read at SIGHUP"),
      {"key_budget", "", nullptr, "a byte size",
       [](Settings& s, const std::string& text) {
         const auto bytes = host::parse_byte_size(text);
         if (bytes) s.key_budget_bytes = *bytes;
         return bytes.has_value();
       },
       "keep loaded keys within this many bytes (each charged its file's size): a LoadKey that would exceed it "
       "evicts idle keys, least recently used first (logged, counted), or fails naming the budget; a key with jobs "
       "in flight is never evicted; none or 0: no budget"},
      {"grace", "30s", nullptr, "e.g. 500ms, 30s, 2m (at most 30 days)",
       [](Settings& s, const std::string& text) {
         const auto ms = parse_duration_ms(text);
         if (ms) s.grace_ms = *ms;
         return ms.has_value();
       },
       "at SIGTERM, queued work is cancelled and work on a device gets this long to finish (ms, s, m or h; 30 days "
       "at most); Await "
       "streams get every outcome. Past it the server logs what is still on a device and exits 1 without waiting "
       "for it"},
      {"log_format", "text", nullptr, "text or json",
       [](Settings& s, const std::string& text) {
         const auto format = parse_log_format(text);
         if (format) s.log_format = *format;
         return format.has_value();
       },
       "text, or json: one JSON object per line on stderr (time, level, logger, message, and job, partition, "
       "gpu_index, key where the message names them); takes a restart"},
      {"key_dirs", "", nullptr, "folders, separated by ':'",
       [](Settings& s, const std::string& text) {
         s.key_dirs = host::split_path(text);
         return true;
       },
       "the folders whose files LoadKey, and Enqueue's key and witness paths, may name (`..` and symlinks "
       "resolved; checked at start). Empty: unix-socket callers may name any file, TCP callers none"},
      {"generator_dirs", "", nullptr, "folders, separated by ':'",
       [](Settings& s, const std::string& text) {
         s.generator_dirs = host::split_path(text);
         return true;
       },
       "the folders whose witness generator plugins (zkpipe witness build's output) LoadKey may load with a key "
       "(`..` and symlinks resolved; checked at start). A generator is code the server runs, so no other file is "
       "ever loaded as one, over any transport. Empty: LoadKey loads no generators"},
      any_text("queue_url", &Settings::queue_url, "a libpq URL",
           "the fleet's PostgreSQL job store (a libpq URL; `zkpipe queue init` makes it): Enqueue puts jobs there for "
           "`zkpipe worker`s, JobStatus reads them back; connected at start"),
  };
  return options;
}

const ServeOption* find_serve_option(std::string_view key) {
  for (const ServeOption& o : serve_options()) {
    if (key == o.key) return &o;
  }
  return nullptr;
}

}  // namespace zkp::serve
