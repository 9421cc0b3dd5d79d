#include "server.hpp"

#include "dashboard.hpp"
#include "services/bearer_token.hpp"
#include "services/tls.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <grpcpp/resource_quota.h>
#include <grpcpp/server_builder.h>
#include <grpcpp/security/server_credentials.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <optional>
#include <thread>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace zkp::serve {

namespace {

using sdk::Error;

constexpr std::chrono::seconds kCallGrace{5};  // open calls' time to answer at shutdown

// True when a server answers on the unix socket `path`.
bool socket_in_use(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  const bool live = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return live;
}

void prepare_socket_path(const std::string& path) {
  if (path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.socket '" + path + "' is longer than a unix socket path may be (" +
                                              std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) + " bytes)");
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  if (!S_ISSOCK(st.st_mode)) throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.socket '" + path + "' exists and is no socket");
  if (socket_in_use(path)) throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.socket '" + path + "': another server listens there");
  ::unlink(path.c_str());  // left by a server that is gone
}

}  // namespace

Server::Server(host::Host& host, const Settings& settings, host::Config config)
    : host_(host), settings_(settings), socket_path_(settings.socket), started_config_(std::move(config)) {
  prepare_socket_path(socket_path_);
  Auth auth = settings.tcp.empty() ? Auth() : Auth::from_token_file(settings.token_file);
  service_ = std::make_unique<Service>(host, std::move(auth), settings.key_budget_bytes,
                                       services::PathPolicy(settings.key_dirs), services::PathPolicy(settings.generator_dirs));
  service_->set_max_waiting_calls(settings.max_waiting_calls);
  service_->set_request_budget(settings.request_budget_bytes);
  if (!settings.queue_url.empty()) service_->set_queue(std::make_unique<QueueClient>(settings.queue_url));
  // Before gRPC listens: a port that cannot be bound fails the start with nothing to undo.
  if (!settings.http.empty()) {
    if (!settings.http_token_file.empty()) {
      http_token_ = services::read_token_file(settings.http_token_file, "serve.http_token_file");
    }
    http_ = std::make_unique<observe::HttpServer>(settings.http, [this](const observe::HttpRequest& request) { return page(request); });
  }

  // gRPC reports a socket folder that is missing or not writable as "No address added" deep in
  // a status blob: say it first, in words (systemd's RuntimeDirectory makes /run/zkpipe).
  {
    const std::filesystem::path folder = std::filesystem::path(socket_path_).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.socket " + socket_path_ + ": the folder " + folder.string() +
                                                " does not exist (create it for the service's user; under systemd, "
                                                "RuntimeDirectory=zkpipe makes /run/zkpipe)");
    }
    if (!folder.empty() && ::access(folder.c_str(), W_OK | X_OK) != 0) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "serve.socket " + socket_path_ + ": the folder " + folder.string() +
                                                " is not writable by this user (" + std::strerror(errno) + ")");
    }
  }

  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(static_cast<int>(settings.max_message_bytes));
  // The sync server runs each call on a thread of its own, and a Prove or Await holds its thread
  // until its job is done (1,000 open Awaits were 1,017 threads, issue 36): Service refuses those
  // beyond serve.max_waiting_calls, and the quota caps the threads at that plus a reserve for
  // the calls that return at once, so open Awaits never leave Health or Cancel without one.
  grpc::ResourceQuota quota("zkpipe serve");
  quota.SetMaxThreads(static_cast<int>(settings.max_waiting_calls + kShortCallThreads));
  builder.SetResourceQuota(quota);
  builder.AddListeningPort("unix:" + socket_path_, grpc::InsecureServerCredentials());
  int tcp_port = 0;
  const bool tls = !settings.tls_cert.empty();
  if (!settings.tcp.empty()) {
    // With serve.tls_cert/tls_key the bearer token travels inside TLS. Without them it travels
    // in clear text: bind to loopback or a private network (or put a TLS proxy in front).
    if (tls) tls_ = std::make_unique<TlsIdentity>(settings.tls_cert, settings.tls_key);
    builder.AddListeningPort(settings.tcp, tls ? tls_->credentials() : grpc::InsecureServerCredentials(), &tcp_port);
  }
  builder.RegisterService(service_.get());
  const mode_t old_mask = ::umask(0177);  // the socket file: owner read/write only
  server_ = builder.BuildAndStart();
  ::umask(old_mask);
  if (!server_) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkpipe serve cannot listen on unix:" + socket_path_ +
                                              (settings.tcp.empty() ? "" : " and " + settings.tcp));
  }
  if (!settings.tcp.empty()) {
    if (tcp_port == 0) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT,
                  "zkpipe serve cannot listen on " + settings.tcp +
                      (tls ? " with TLS (is serve.tls_key the private key of serve.tls_cert? gRPC's log says more)" : ""));
    }
    tcp_bound_ = settings.tcp.substr(0, settings.tcp.rfind(':') + 1) + std::to_string(tcp_port);
  }
  host::log().info("serve: listening on unix:{}{}{}", socket_path_,
                   tcp_bound_.empty() ? "" : " and tcp:" + tcp_bound_ + (tls ? " (TLS, bearer token)" : " (bearer token)"),
                   http_ ? " and http:" + http_->address() + " (/, /metrics, /status, /healthz)" : "");
}

observe::HttpResponse Server::page(const observe::HttpRequest& request) {
  const std::string& path = request.path;
  if (path != "/healthz") {
    std::lock_guard lock(http_token_mu_);
    if (!http_token_.empty() && !Auth::is_bearer(request.authorization, http_token_)) {
      host::log().warn("serve.http: refused GET {}: {}", path,
                       request.authorization.empty() ? "no Authorization header" : "not the bearer token");
      return {401, "text/plain; charset=utf-8",
              "this page needs 'Authorization: Bearer TOKEN' (serve.http_token_file)\n", "Bearer realm=\"zkpipe\""};
    }
  }
  if (path == "/") return {200, "text/html; charset=utf-8", std::string(kDashboardHtml)};
  if (path == "/metrics") return {200, "text/plain; version=0.0.4; charset=utf-8", observe::metrics_text(service_->report())};
  if (path == "/status") return {200, "application/json", observe::status_json(service_->report())};
  if (path == "/healthz") {
    if (service_->accepting()) return {200, "text/plain; charset=utf-8", "ok\n"};
    return {503, "text/plain; charset=utf-8", "shutting down\n"};
  }
  return {404, "text/plain; charset=utf-8", "not found: " + path + " (try /, /metrics, /status, /healthz)\n"};
}

void Server::reload(const host::Config& config, const Settings& settings) {
  std::vector<std::string> applied;
  // Everything that can fail first, so a failure applies nothing.
  std::optional<Auth> auth;
  if (!settings_.tcp.empty()) auth = Auth::from_token_file(settings.token_file.empty() ? settings_.token_file : settings.token_file);
  std::optional<std::string> http_token;
  if (http_ && !settings.http_token_file.empty()) {
    http_token = services::read_token_file(settings.http_token_file, "serve.http_token_file");
  }
  const bool tls_reload = tls_ && !settings.tls_cert.empty() && !settings.tls_key.empty();
  if (tls_reload) tls_->reload(settings.tls_cert, settings.tls_key);
  if (http_token) {
    std::lock_guard lock(http_token_mu_);
    http_token_ = std::move(*http_token);
    applied.push_back("the HTTP endpoint's bearer token (from " + settings.http_token_file + ")");
  }
  if (auth) {
    service_->set_auth(std::move(*auth));
    applied.push_back("the bearer token (from " + settings.token_file + ")");
  }
  if (tls_reload) {
    applied.push_back("the TLS certificate and key (from " + settings.tls_cert + " and " + settings.tls_key +
                      "; new connections get them within " + std::to_string(TlsIdentity::kRefreshSeconds) +
                      " s, open ones go on)");
    settings_.tls_cert = settings.tls_cert;
    settings_.tls_key = settings.tls_key;
  }
  if (host::log().level() != config.log_level) {
    applied.push_back(std::string("log_level ") + host::log_level_name(host::log().level()) + " -> " +
                      host::log_level_name(config.log_level));
  }
  host::log().set_level(config.log_level);
  settings_.grace_ms = settings.grace_ms;  // read at SIGTERM
  // Every other key that changed since the start, by name: the host's (prover, pacer, workers,
  // budget, ...), the plugins' and the rest of [serve] are read once, when the process starts.
  std::vector<std::string> applied_keys = {"log_level", "serve.grace", "serve.token_file"};
  if (tls_) applied_keys.insert(applied_keys.end(), {"serve.tls_cert", "serve.tls_key"});
  if (http_) applied_keys.emplace_back("serve.http_token_file");
  std::string restart;
  for (const std::string& key : host::changed_keys(started_config_, config)) {
    if (std::find(applied_keys.begin(), applied_keys.end(), key) != applied_keys.end()) continue;
    restart += (restart.empty() ? "" : ", ") + key;
  }
  std::string text;
  for (const std::string& a : applied) text += (text.empty() ? "" : ", ") + a;
  if (restart.empty()) {
    host::log().info("serve: SIGHUP: reloaded {}; serve.grace = {} ms", text.empty() ? "nothing that changed" : text,
                     settings_.grace_ms);
  } else {
    host::log().warn("serve: SIGHUP: reloaded {}; serve.grace = {} ms; NOT applied, each takes a restart: {} "
                     "(the running values stay)",
                     text.empty() ? "nothing that changed" : text, settings_.grace_ms, restart);
  }
}

Server::~Server() {
  try {
    shutdown(ZKP_SHUTDOWN_CANCEL);
  } catch (const std::exception& e) {
    host::log().error("serve: shutdown failed: {}", e.what());
  }
}

void Server::shutdown(zkp_shutdown_mode_t mode) {
  if (shut_down_) return;
  shut_down_ = true;
  service_->stop_accepting();
  host_.shutdown(mode);  // every job finishes; Prove and Await calls then answer
  stop_listening();
}

void Server::stop_listening() {
  server_->Shutdown(std::chrono::system_clock::now() + kCallGrace);
  server_->Wait();
  if (http_) http_->stop();
  ::unlink(socket_path_.c_str());
  host::log().info("serve: stopped");
}

bool Server::drain() {
  if (shut_down_) return true;
  shut_down_ = true;
  service_->stop_accepting();
  const zkp_host_stats_t before = host_.stats();
  host::log().info("serve: draining (queued work cancelled): {} pending, {} synthesizing, {} waiting, {} on a device; "
                   "up to {} ms to finish",
                   before.pending, before.synthesizing, before.waiting, before.proving, settings_.grace_ms);
  // host_.shutdown waits for what is on a device without a limit; the grace time is kept
  // here, on a thread of its own, so a device that hangs cannot hold the process.
  auto done = std::make_shared<std::promise<void>>();  // shared: the drainer may outlive this call
  std::future<void> finished = done->get_future();
  std::thread drainer([this, done] {
    try {
      host_.shutdown(ZKP_SHUTDOWN_CANCEL);
    } catch (const std::exception& e) {
      host::log().error("serve: shutdown failed: {}", e.what());
    }
    done->set_value();
  });
  if (finished.wait_for(std::chrono::milliseconds(settings_.grace_ms)) == std::future_status::ready) {
    drainer.join();
    stop_listening();
    return true;
  }
  drainer.detach();  // still in host_.shutdown; the caller exits at once (std::_Exit)
  const zkp_host_stats_t after = host_.stats();
  host::log().error("serve: serve.grace ({} ms) passed with {} partition(s) still on a device; exiting without them",
                    settings_.grace_ms, after.proving);
  ::unlink(socket_path_.c_str());
  // The caller's std::_Exit runs no destructor: the private copy of the TLS key (in $TMPDIR)
  // goes now, or it would outlive the server.
  if (tls_) tls_->remove_private_copy();
  return false;
}

}  // namespace zkp::serve
