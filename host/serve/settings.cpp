#include "settings.hpp"

#include <zkpipe/host/byte_size.hpp>
#include <zkpipe/sdk/error.hpp>

#include <cstdlib>
#include <limits>

#include <unistd.h>

namespace zkp::serve {

namespace {

using sdk::Error;

// gRPC takes the largest message as an int.
constexpr uint64_t kMaxMessageLimit = std::numeric_limits<int>::max();

std::string default_socket() {
  if (const char* dir = std::getenv("XDG_RUNTIME_DIR"); dir != nullptr && *dir != '\0') {
    return std::string(dir) + "/zkpipe.sock";
  }
  return "/tmp/zkpipe-" + std::to_string(::getuid()) + ".sock";
}

std::string where(const host::PluginOption& o) {
  return o.origin.empty() ? "serve." + o.key : o.origin + ": serve." + o.key;
}

}  // namespace

const char* settings_help() {
  return "Serve keys ([serve] section of the config, or serve.KEY=VALUE):\n"
         "  serve.socket = $XDG_RUNTIME_DIR/zkpipe.sock (else /tmp/zkpipe-UID.sock)\n"
         "      the unix socket, created with mode 0600; always served, without authentication\n"
         "  serve.tcp = (none)\n"
         "      also listen on HOST:PORT (port 0: a free port, logged); every TCP call must carry\n"
         "      'authorization: Bearer TOKEN' metadata\n"
         "  serve.token_file = (none)\n"
         "      the file holding TOKEN (surrounding whitespace ignored); required with serve.tcp\n"
         "  serve.max_message = 256MiB\n"
         "      the largest request accepted (a job's witnesses travel in one message)\n";
}

Settings Settings::from(const host::Config& config) {
  Settings s;
  s.socket = default_socket();
  s.max_message_bytes = 256ull << 20;
  std::string tcp_origin;
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
    } else if (o.key == "max_message") {
      const auto bytes = host::parse_byte_size(o.value);
      if (!bytes || *bytes == 0 || *bytes > kMaxMessageLimit) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT,
                    where(o) + " = '" + o.value + "' is invalid: expected a byte size from 1 B to 2 GiB - 1");
      }
      s.max_message_bytes = *bytes;
    } else {
      throw Error(ZKP_ERR_INVALID_ARGUMENT,
                  where(o) + ": unknown key (known: serve.socket, serve.tcp, serve.token_file, serve.max_message)");
    }
  }
  if (!s.tcp.empty() && s.token_file.empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, tcp_origin + " needs serve.token_file: TCP calls must carry a bearer token");
  }
  return s;
}

}  // namespace zkp::serve
