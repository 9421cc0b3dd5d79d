// A minimal HTTP/1.1 server for the service's read-only pages (/, /metrics, /status, /healthz):
// one thread, every answer "Connection: close". The pages are made in microseconds, but a
// client can be slow or idle: connections are served side by side by one poll loop (up to
// kMaxConnections at once; more wait in the listen backlog), so idle or slow ones do not delay
// a health check behind them. What a client can hold is bounded: a request head of at most
// kMaxRequest bytes, read within kReadTimeout, an answer written within kWriteTimeout; past
// those the connection is dropped (431 for a head too large, 408 for one too slow).
// GET and HEAD only (405 otherwise, with Allow); a path the handler does not know: 404.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>
#include <utility>

namespace zkp::observe {

struct HttpRequest {
  std::string path;           // the query string removed
  std::string authorization;  // the Authorization header's value, "" when absent
};

struct HttpResponse {
  HttpResponse() = default;
  HttpResponse(int s, std::string type, std::string text, std::string challenge = {})
      : status(s), content_type(std::move(type)), body(std::move(text)), www_authenticate(std::move(challenge)) {}

  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::string www_authenticate;  // a 401's challenge ("Bearer"), sent when not empty
};

class HttpServer {
 public:
  static constexpr size_t kMaxRequest = 8192;
  static constexpr std::chrono::milliseconds kReadTimeout{2000};
  static constexpr std::chrono::milliseconds kWriteTimeout{5000};
  static constexpr size_t kMaxConnections = 64;

  // Answers a GET of the request's path; status 404 for an unknown path.
  using Handler = std::function<HttpResponse(const HttpRequest& request)>;

  // Binds HOST:PORT (port 0: any free port) and starts the thread. Throws zkp::sdk::Error
  // (ZKP_ERR_INVALID_ARGUMENT) when the address cannot be bound.
  HttpServer(const std::string& address, Handler handler);
  ~HttpServer();  // stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // "127.0.0.1:40123": the address actually bound.
  const std::string& address() const { return bound_; }
  // Ends the thread (a connection being served is dropped) and closes the socket.
  void stop();

 private:
  struct Connection;
  void run();
  // Reads what `c` has sent; once its head is whole (or too large), makes its answer.
  void on_readable(Connection& c);
  HttpResponse answer(const std::string& request, bool& allow, bool& head_only);

  Handler handler_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};  // a pipe: stop() writes, the thread's poll wakes
  std::string bound_;
  std::thread thread_;
};

}  // namespace zkp::observe
