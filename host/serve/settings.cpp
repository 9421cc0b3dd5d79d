// Settings from serve_options() (serve_options.cpp): the defaults, the parsing and its errors,
// and `zkpipe serve --help`, so that none of them can name a key or a default the table lacks.
#include "settings.hpp"

#include "services/address.hpp"
#include "serve_options.hpp"

#include <zkpipe/sdk/error.hpp>

#include <sstream>
#include <stdexcept>

namespace zkp::serve {

namespace {

using sdk::Error;

std::string where(const host::PluginOption& o) {
  return o.origin.empty() ? "serve." + o.key : o.origin + ": serve." + o.key;
}

std::string known_keys() {
  std::string out;
  for (const ServeOption& o : serve_options()) out.append(out.empty() ? "" : ", ").append("serve.").append(o.key);
  return out;
}

// `meaning` in lines of at most kWidth characters, each after kIndent (as `zkpipe --help`
// prints the host's keys).
void print_wrapped(std::ostream& out, const std::string& meaning) {
  constexpr size_t kWidth = 92;  // the width of the hand-wrapped help this replaced
  const std::string indent = "      ";
  std::string line = indent;
  std::istringstream words(meaning);
  for (std::string word; words >> word;) {
    if (line.size() + word.size() + 1 > kWidth && line.size() > indent.size()) {
      out << line << "\n";
      line = indent;
    }
    line.append(line.size() > indent.size() ? " " : "").append(word);
  }
  out << line << "\n";
}

}  // namespace

// The clients' default too (host/services/address.hpp): one place says where a server listens.
std::string default_socket() { return services::default_socket(); }

std::string settings_help() {
  std::ostringstream out;
  out << "Serve keys ([serve] section of the config, or serve.KEY=VALUE):\n";
  for (const ServeOption& o : serve_options()) {
    out << "  serve." << o.key << " = ";
    if (o.machine != nullptr) {
      out << o.machine->shown() << " (" << o.machine->words << ")";
    } else {
      out << (*o.default_text == '\0' ? "(none)" : o.default_text);
    }
    out << "\n";
    print_wrapped(out, o.meaning);
  }
  return out.str();
}

Settings Settings::from(const host::Config& config) {
  Settings s;
  for (const ServeOption& o : serve_options()) {
    const std::string value = o.default_value();
    // A default the key does not accept is a mistake in the table (settings_test.cpp catches it).
    if (!value.empty() && !o.set(s, value)) {
      throw std::logic_error(std::string("serve.").append(o.key).append(": the default '" + value + "' is not accepted"));
    }
  }
  std::string tcp_origin;
  std::string tls_origin;
  std::string http_token_origin;
  for (const host::PluginOption& o : config.serve_options) {
    const ServeOption* option = find_serve_option(o.key);
    if (option == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + ": unknown key (known: " + known_keys() + ")");
    if (!option->set(s, o.value)) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, where(o) + " = '" + o.value + "' is invalid: expected " + option->expected);
    }
    // The checks below name where the key they are about was written.
    if (o.key == "tcp") tcp_origin = where(o);
    if (o.key == "tls_cert" || o.key == "tls_key") tls_origin = where(o);
    if (o.key == "http_token_file") http_token_origin = where(o);
  }
  if (s.request_budget_bytes < s.max_message_bytes) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.request_budget (" + std::to_string(s.request_budget_bytes) +
                                              " bytes) must hold one request of serve.max_message (" +
                                              std::to_string(s.max_message_bytes) + " bytes)");
  }
  if (!s.http_token_file.empty() && s.http.empty()) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, http_token_origin + " is for the HTTP endpoint, and serve.http is not set");
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
