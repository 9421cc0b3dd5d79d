#include "http_server.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace zkp::serve {

namespace {

using Clock = std::chrono::steady_clock;

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
  }
}

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

// Writes all of `data` by `deadline`; false if the peer is gone or too slow.
bool write_all(int fd, const std::string& data, Clock::time_point deadline) {
  size_t off = 0;
  while (off < data.size()) {
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, remaining_ms(deadline)) <= 0) return false;
    const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// Ends the answer and reads what the peer still sends (up to 64 KiB, for half a second) before
// the socket is closed: closing with unread bytes would reset the connection, and the peer
// could lose the answer (a 431 is sent before the rest of the head is read).
void finish(int fd) {
  ::shutdown(fd, SHUT_WR);
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(500);
  char buf[4096];
  for (size_t drained = 0; drained < 65536;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, remaining_ms(deadline)) <= 0) return;
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    drained += static_cast<size_t>(n);
  }
}

std::string head_of(const HttpResponse& r, bool with_allow) {
  std::string h = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\n";
  h += "Content-Type: " + r.content_type + "\r\n";
  h += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  h += "Cache-Control: no-store\r\n";
  if (with_allow) h += "Allow: GET, HEAD\r\n";
  h += "Connection: close\r\n\r\n";
  return h;
}

}  // namespace

HttpServer::HttpServer(const std::string& address, Handler handler) : handler_(std::move(handler)) {
  const size_t colon = address.rfind(':');
  std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "serve.http '" + address + "': " + gai_strerror(rc));
  }
  std::string why = "no address";
  for (addrinfo* a = found; a != nullptr && listen_fd_ < 0; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 16) == 0) {
      listen_fd_ = fd;
      sockaddr_storage bound{};
      socklen_t len = sizeof(bound);
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
      char text[INET6_ADDRSTRLEN] = {};
      uint16_t bound_port = 0;
      if (bound.ss_family == AF_INET6) {
        const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&bound);
        ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
        bound_port = ntohs(in6->sin6_port);
        bound_ = std::string("[") + text + "]:" + std::to_string(bound_port);
      } else {
        const auto* in4 = reinterpret_cast<const sockaddr_in*>(&bound);
        ::inet_ntop(AF_INET, &in4->sin_addr, text, sizeof(text));
        bound_port = ntohs(in4->sin_port);
        bound_ = std::string(text) + ":" + std::to_string(bound_port);
      }
    } else {
      why = std::strerror(errno);
      ::close(fd);
    }
  }
  ::freeaddrinfo(found);
  if (listen_fd_ < 0) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "serve.http cannot listen on " + address + ": " + why);
  if (::pipe2(wake_, O_CLOEXEC) != 0) {
    ::close(listen_fd_);
    throw sdk::Error(ZKP_ERR_INTERNAL, std::string("serve.http: pipe: ") + std::strerror(errno));
  }
  thread_ = std::thread([this] { run(); });
}

HttpServer::~HttpServer() { stop(); }

void HttpServer::stop() {
  if (!thread_.joinable()) return;
  const char byte = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_[1], &byte, 1);
  thread_.join();
  ::close(listen_fd_);
  ::close(wake_[0]);
  ::close(wake_[1]);
}

void HttpServer::run() {
  for (;;) {
    pollfd p[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      host::log().error("serve.http: poll: {}", std::strerror(errno));
      return;
    }
    if (p[1].revents != 0) return;
    if ((p[0].revents & POLLIN) == 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) continue;  // the peer gave up already, or out of descriptors: the next poll retries
    serve_one(fd);
    ::close(fd);
  }
}

void HttpServer::serve_one(int fd) {
  const Clock::time_point read_deadline = Clock::now() + kReadTimeout;
  std::string request;
  size_t head_end = std::string::npos;
  while (head_end == std::string::npos) {
    if (request.size() >= kMaxRequest) {
      if (write_all(fd, head_of({431, "text/plain; charset=utf-8", "request head too large\n"}, false) +
                            "request head too large\n",
                    Clock::now() + kWriteTimeout)) {
        finish(fd);
      }
      return;
    }
    pollfd p[2] = {{fd, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int ready = ::poll(p, 2, remaining_ms(read_deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (p[1].revents != 0) return;  // stopping
    if (ready <= 0) {
      const HttpResponse slow{408, "text/plain; charset=utf-8", "request not read in time\n"};
      write_all(fd, head_of(slow, false) + slow.body, Clock::now() + kWriteTimeout);
      return;
    }
    char buf[2048];
    const ssize_t n = ::recv(fd, buf, std::min(sizeof(buf), kMaxRequest - request.size()), 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return;  // the peer closed
    request.append(buf, static_cast<size_t>(n));
    head_end = request.find("\r\n\r\n");
    if (head_end == std::string::npos) head_end = request.find("\n\n");
  }

  // The request line: METHOD SP TARGET SP HTTP/1.x
  const std::string line = request.substr(0, request.find_first_of("\r\n"));
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string::npos ? std::string::npos : line.find(' ', sp1 + 1);
  HttpResponse response;
  bool allow = false;
  bool head_only = false;
  if (sp2 == std::string::npos || line.compare(sp2 + 1, 7, "HTTP/1.") != 0 || line[sp1 + 1] != '/') {
    response = {400, "text/plain; charset=utf-8", "malformed request line\n"};
  } else {
    const std::string method = line.substr(0, sp1);
    std::string path = line.substr(sp1 + 1, sp2 - sp1 - 1);
    path = path.substr(0, path.find('?'));
    if (method != "GET" && method != "HEAD") {
      response = {405, "text/plain; charset=utf-8", "only GET and HEAD are served\n"};
      allow = true;
    } else {
      head_only = method == "HEAD";
      try {
        response = handler_(path);
      } catch (const std::exception& e) {
        host::log().error("serve.http: GET {} failed: {}", path, e.what());
        response = {500, "text/plain; charset=utf-8", std::string(e.what()) + "\n"};
      }
    }
  }
  const Clock::time_point write_deadline = Clock::now() + kWriteTimeout;
  std::string out = head_of(response, allow);
  if (!head_only) out += response.body;
  if (write_all(fd, out, write_deadline)) finish(fd);
}

}  // namespace zkp::serve
