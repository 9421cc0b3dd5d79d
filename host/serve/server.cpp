#include "server.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <grpcpp/server_builder.h>
#include <grpcpp/security/server_credentials.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

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

Server::Server(host::Host& host, const Settings& settings) : host_(host), socket_path_(settings.socket) {
  prepare_socket_path(socket_path_);
  Auth auth = settings.tcp.empty() ? Auth() : Auth::from_token_file(settings.token_file);
  service_ = std::make_unique<Service>(host, std::move(auth));

  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(static_cast<int>(settings.max_message_bytes));
  builder.AddListeningPort("unix:" + socket_path_, grpc::InsecureServerCredentials());
  int tcp_port = 0;
  if (!settings.tcp.empty()) {
    // TLS is not there yet: the bearer token travels in clear text; bind to loopback or a
    // private network (or put a TLS proxy in front).
    builder.AddListeningPort(settings.tcp, grpc::InsecureServerCredentials(), &tcp_port);
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
    if (tcp_port == 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkpipe serve cannot listen on " + settings.tcp);
    tcp_bound_ = settings.tcp.substr(0, settings.tcp.rfind(':') + 1) + std::to_string(tcp_port);
  }
  host::log().info("serve: listening on unix:{}{}", socket_path_, tcp_bound_.empty() ? "" : " and tcp:" + tcp_bound_ + " (bearer token)");
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
  server_->Shutdown(std::chrono::system_clock::now() + kCallGrace);
  server_->Wait();
  ::unlink(socket_path_.c_str());
  host::log().info("serve: stopped");
}

}  // namespace zkp::serve
