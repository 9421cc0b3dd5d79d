// The gRPC server of `zkpipe serve`: the unix socket (mode 0600, a stale socket file of a
// server that is gone replaced, a live one refused) and, when configured, TCP; the Service.
#pragma once

#include "service.hpp"
#include "settings.hpp"

#include <grpcpp/server.h>

#include <memory>
#include <string>

namespace zkp::serve {

class Server {
 public:
  // Starts listening. Throws zkp::sdk::Error when a listener cannot be made. `host` must
  // outlive the server.
  Server(host::Host& host, const Settings& settings);
  ~Server();  // shutdown(ZKP_SHUTDOWN_CANCEL) if that was not done: the jobs' callbacks use the service
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The TCP address actually bound ("127.0.0.1:40123"), or "".
  const std::string& tcp_address() const { return tcp_bound_; }

  // Refuses new work, ends the host's jobs (`mode`: what is on a device finishes; ZKP_SHUTDOWN_DRAIN
  // also finishes what is queued), lets open calls answer (Await streams get every outcome),
  // then stops listening and removes the socket file. Not on a gRPC thread.
  void shutdown(zkp_shutdown_mode_t mode);

 private:
  host::Host& host_;
  bool shut_down_ = false;
  std::string socket_path_;
  std::string tcp_bound_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace zkp::serve
