// Settings::from and `zkpipe serve --help` made from serve_options() (host/serve/serve_options.cpp):
// the defaults `zkpipe serve` has always had, every key accepted, the errors naming the key, its
// value, where it was written and what it expects, and the checks across keys.
#include "serve_options.hpp"
#include "settings.hpp"

#include <zkpipe/sdk/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace zkp::serve {
namespace {

Settings from(std::vector<host::PluginOption> options) {
  host::Config config;
  config.serve_options = std::move(options);
  return Settings::from(config);
}

// The message of the error Settings::from throws for `options`; "" when it throws none.
std::string error_of(std::vector<host::PluginOption> options) {
  try {
    from(std::move(options));
  } catch (const sdk::Error& e) {
    EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT) << e.what();
    return e.what();
  }
  return "";
}

TEST(ServeSettings, DefaultsAreTheOnesServeHadBefore) {
  const Settings s = from({});
  EXPECT_EQ(s.socket, default_socket());
  EXPECT_EQ(s.tcp, "");
  EXPECT_EQ(s.token_file, "");
  EXPECT_EQ(s.tls_cert, "");
  EXPECT_EQ(s.tls_key, "");
  EXPECT_EQ(s.max_message_bytes, 256ull << 20);
  EXPECT_EQ(s.http, "");
  EXPECT_EQ(s.key_budget_bytes, 0u);
  EXPECT_EQ(s.grace_ms, 30000u);
  EXPECT_EQ(s.log_format, LogFormat::text);
  EXPECT_EQ(s.queue_url, "");
}

TEST(ServeSettings, EveryKeySetsItsField) {
  const Settings s = from({{"socket", "/run/z.sock"},
                           {"tcp", "127.0.0.1:0"},
                           {"token_file", "/etc/token"},
                           {"tls_cert", "c.pem"},
                           {"tls_key", "k.pem"},
                           {"max_message", "1MiB"},
                           {"http", "localhost:9464"},
                           {"key_budget", "2GiB"},
                           {"grace", "2m"},
                           {"log_format", "json"},
                           {"queue_url", "postgresql://db/z"}});
  EXPECT_EQ(s.socket, "/run/z.sock");
  EXPECT_EQ(s.tcp, "127.0.0.1:0");
  EXPECT_EQ(s.token_file, "/etc/token");
  EXPECT_EQ(s.tls_cert, "c.pem");
  EXPECT_EQ(s.tls_key, "k.pem");
  EXPECT_EQ(s.max_message_bytes, 1u << 20);
  EXPECT_EQ(s.http, "localhost:9464");
  EXPECT_EQ(s.key_budget_bytes, 2ull << 30);
  EXPECT_EQ(s.grace_ms, 120000u);
  EXPECT_EQ(s.log_format, LogFormat::json);
  EXPECT_EQ(s.queue_url, "postgresql://db/z");
  EXPECT_EQ(from({{"grace", "500ms"}}).grace_ms, 500u);
  EXPECT_EQ(from({{"grace", "7"}}).grace_ms, 7u);
}

TEST(ServeSettings, BadValuesNameTheKeyTheValueAndWhatItExpects) {
  EXPECT_EQ(error_of({{"max_message", "0", "s.ini:3"}}),
            "s.ini:3: serve.max_message = '0' is invalid: expected a byte size from 1 B to 2 GiB - 1");
  EXPECT_EQ(error_of({{"max_message", "2GiB"}}),
            "serve.max_message = '2GiB' is invalid: expected a byte size from 1 B to 2 GiB - 1");
  EXPECT_EQ(error_of({{"socket", ""}}), "serve.socket = '' is invalid: expected a unix socket path (not empty)");
  EXPECT_EQ(error_of({{"tcp", "7443"}}), "serve.tcp = '7443' is invalid: expected HOST:PORT");
  EXPECT_NE(error_of({{"http", "0.0.0.0:9464"}}).find("serve.http = '0.0.0.0:9464' is invalid: expected 127.0.0.1:PORT"),
            std::string::npos);
  EXPECT_NE(error_of({{"http", "127.0.0.1:65536"}}), "");
  EXPECT_EQ(error_of({{"key_budget", "lots"}}), "serve.key_budget = 'lots' is invalid: expected a byte size");
  EXPECT_EQ(error_of({{"key_budget", ""}}), "serve.key_budget = '' is invalid: expected a byte size");
  // services::parse_duration, as every duration flag (issue 36): 1h is one, inf and more than 30 days are not.
  EXPECT_EQ(error_of({{"grace", "1h"}}), "");
  EXPECT_EQ(error_of({{"grace", "1d"}}), "serve.grace = '1d' is invalid: expected e.g. 500ms, 30s, 2m (at most 30 days)");
  EXPECT_EQ(error_of({{"grace", "inf"}}), "serve.grace = 'inf' is invalid: expected e.g. 500ms, 30s, 2m (at most 30 days)");
  EXPECT_EQ(error_of({{"grace", "2592000001"}}),
            "serve.grace = '2592000001' is invalid: expected e.g. 500ms, 30s, 2m (at most 30 days)");
  EXPECT_EQ(error_of({{"log_format", "xml"}}), "serve.log_format = 'xml' is invalid: expected text or json");
}

TEST(ServeSettings, AnUnknownKeyListsEveryKnownOne) {
  std::string known;
  for (const ServeOption& o : serve_options()) known.append(known.empty() ? "" : ", ").append("serve.").append(o.key);
  EXPECT_EQ(error_of({{"sockt", "x", "override 'serve.sockt=x'"}}),
            "override 'serve.sockt=x': serve.sockt: unknown key (known: " + known + ")");
  EXPECT_NE(known.find("serve.tls_key"), std::string::npos) << known;
  EXPECT_EQ(serve_options().size(), 16u) << "a key added or removed: update this test and the README's table";
}

TEST(ServeSettings, KeysThatGoTogether) {
  EXPECT_EQ(error_of({{"tcp", "127.0.0.1:0", "s.ini:2"}}),
            "s.ini:2: serve.tcp needs serve.token_file: TCP calls must carry a bearer token");
  EXPECT_EQ(from({{"tcp", "127.0.0.1:0"}, {"token_file", "t"}}).tcp, "127.0.0.1:0");
  EXPECT_EQ(error_of({{"tcp", "127.0.0.1:0"}, {"token_file", "t"}, {"tls_cert", "c.pem", "s.ini:5"}}),
            "s.ini:5: serve.tls_cert: serve.tls_cert and serve.tls_key go together (a certificate and its key)");
  EXPECT_EQ(error_of({{"tls_cert", "c.pem"}, {"tls_key", "k.pem", "s.ini:6"}}),
            "s.ini:6: serve.tls_key is for the TCP listener, and serve.tcp is not set");
  // A later value replaces an earlier one: tcp set, then cleared.
  EXPECT_EQ(from({{"tcp", "127.0.0.1:0"}, {"tcp", ""}}).tcp, "");
}

TEST(ServeSettings, HelpListsEveryKeyWithItsDefault) {
  const std::string help = settings_help();
  for (const ServeOption& o : serve_options()) {
    EXPECT_NE(help.find(std::string("  serve.").append(o.key).append(" = ")), std::string::npos) << o.key << "\n" << help;
  }
  const std::string socket = default_socket();
  EXPECT_NE(help.find("  serve.socket = " + socket + " ($XDG_RUNTIME_DIR/zkpipe.sock, else /tmp/zkpipe-UID.sock)\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("  serve.max_message = 256MiB\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  serve.grace = 30s\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  serve.tcp = (none)\n"), std::string::npos) << help;
}

}  // namespace
}  // namespace zkp::serve
