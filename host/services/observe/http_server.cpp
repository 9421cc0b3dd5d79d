#include "http_server.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace zkp::observe {

namespace {

using Clock = std::chrono::steady_clock;

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
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

// Ends the answer and then reads what the peer still sends (up to kDrainBytes, for kDrain)
// before the socket is closed: closing with unread bytes would reset the connection, and the
// peer could lose the answer (a 431 is sent before the rest of the head is read).
constexpr std::chrono::milliseconds kDrain{500};
constexpr size_t kDrainBytes = 65536;

// The value of header `name` (lowercase) in a request head, surrounding blanks removed; "" when
// it is absent.
std::string header_value(const std::string& head, std::string_view name) {
  size_t at = head.find('\n');
  while (at != std::string::npos && at + 1 < head.size()) {
    const size_t start = at + 1;
    const size_t end = head.find('\n', start);
    std::string line = head.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t colon = line.find(':');
    if (colon == name.size() && std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
          return a == std::tolower(static_cast<unsigned char>(b));
        })) {
      const size_t first = line.find_first_not_of(" \t", colon + 1);
      const size_t last = line.find_last_not_of(" \t");
      return first == std::string::npos ? std::string() : line.substr(first, last - first + 1);
    }
    at = end;
  }
  return "";
}

std::string head_of(const HttpResponse& r, bool with_allow) {
  std::string h = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\n";
  h += "Content-Type: " + r.content_type + "\r\n";
  h += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  h += "Cache-Control: no-store\r\n";
  if (with_allow) h += "Allow: GET, HEAD\r\n";
  if (!r.www_authenticate.empty()) h += "WWW-Authenticate: " + r.www_authenticate + "\r\n";
  h += "Connection: close\r\n\r\n";
  return h;
}

}  // namespace

HttpServer::HttpServer(const std::string& address, Handler handler) : handler_(std::move(handler)) {
  const size_t colon = address.rfind(':');
  std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  // An address, never a name a resolver could answer for: "localhost" is 127.0.0.1 here.
  if (host == "localhost") host = "127.0.0.1";
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | AI_NUMERICHOST;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "serve.http '" + address + "': " + gai_strerror(rc));
  }
  std::string why = "no address";
  for (addrinfo* a = found; a != nullptr && listen_fd_ < 0; a = a->ai_next) {
    // Non-blocking: the poll loop accepts until none is left (accept4 would wait otherwise).
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
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

// One connection's state in the poll loop: reading its head, writing its answer, then
// draining what it still sends until it closes (or kDrain passes).
struct HttpServer::Connection {
  enum class Phase { reading, writing, draining };
  int fd = -1;
  Phase phase = Phase::reading;
  Clock::time_point deadline;
  std::string in;       // the request head so far
  std::string out;      // the answer
  size_t sent = 0;      // of out
  size_t drained = 0;   // bytes read while draining

  void respond(std::string answer, Clock::time_point now) {
    out = std::move(answer);
    sent = 0;
    phase = Phase::writing;
    deadline = now + kWriteTimeout;
  }
};

void HttpServer::run() {
  std::vector<Connection> conns;
  auto close_all = [&] {
    for (Connection& c : conns) ::close(c.fd);
  };
  for (;;) {
    const Clock::time_point now = Clock::now();
    // Deadlines first: a head not read in time gets its 408, an answer not taken in time or a
    // drain that is over ends the connection.
    for (Connection& c : conns) {
      if (now < c.deadline) continue;
      if (c.phase == Connection::Phase::reading) {
        const HttpResponse slow{408, "text/plain; charset=utf-8", "request not read in time\n"};
        c.respond(head_of(slow, false) + slow.body, now);
      } else {
        ::close(c.fd);
        c.fd = -1;
      }
    }
    std::erase_if(conns, [](const Connection& c) { return c.fd < 0; });

    std::vector<pollfd> fds{{wake_[0], POLLIN, 0}, {conns.size() < kMaxConnections ? listen_fd_ : -1, POLLIN, 0}};
    Clock::time_point next = Clock::time_point::max();
    for (const Connection& c : conns) {
      fds.push_back({c.fd, static_cast<short>(c.phase == Connection::Phase::writing ? POLLOUT : POLLIN), 0});
      next = std::min(next, c.deadline);
    }
    const int timeout = next == Clock::time_point::max() ? -1 : std::max(1, remaining_ms(next));
    if (::poll(fds.data(), fds.size(), timeout) < 0) {
      if (errno == EINTR) continue;
      host::log().error("serve.http: poll: {}", std::strerror(errno));
      close_all();
      return;
    }
    if (fds[0].revents != 0) {  // stopping: connections being served are dropped
      close_all();
      return;
    }
    const Clock::time_point after = Clock::now();
    for (size_t k = 0; k < conns.size(); ++k) {
      Connection& c = conns[k];
      if (fds[k + 2].revents == 0) continue;
      if (c.phase == Connection::Phase::reading) {
        on_readable(c);
        if (c.phase == Connection::Phase::writing) c.deadline = after + kWriteTimeout;
      }
      if (c.phase == Connection::Phase::writing && c.fd >= 0) {
        const ssize_t n = ::send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) {
          ::close(c.fd);
          c.fd = -1;
          continue;
        }
        c.sent += static_cast<size_t>(n);
        if (c.sent == c.out.size()) {
          ::shutdown(c.fd, SHUT_WR);
          c.phase = Connection::Phase::draining;
          c.deadline = after + kDrain;
        }
      } else if (c.phase == Connection::Phase::draining) {
        char buf[4096];
        const ssize_t n = ::recv(c.fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n > 0) c.drained += static_cast<size_t>(n);
        if (n <= 0 || c.drained >= kDrainBytes) {
          ::close(c.fd);
          c.fd = -1;
        }
      }
    }
    std::erase_if(conns, [](const Connection& c) { return c.fd < 0; });
    // New connections, as many as there is room for (the rest stay in the backlog).
    if (fds[1].fd >= 0 && (fds[1].revents & POLLIN) != 0) {
      while (conns.size() < kMaxConnections) {
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) break;  // none left, the peer gave up already, or out of descriptors
        Connection c;
        c.fd = fd;
        c.deadline = after + kReadTimeout;
        conns.push_back(std::move(c));
      }
    }
  }
}

void HttpServer::on_readable(Connection& c) {
  char buf[2048];
  const ssize_t n = ::recv(c.fd, buf, std::min(sizeof(buf), kMaxRequest - c.in.size()), MSG_DONTWAIT);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {  // the peer closed
    ::close(c.fd);
    c.fd = -1;
    return;
  }
  c.in.append(buf, static_cast<size_t>(n));
  const bool whole = c.in.find("\r\n\r\n") != std::string::npos || c.in.find("\n\n") != std::string::npos;
  if (!whole && c.in.size() < kMaxRequest) return;
  if (!whole) {
    const HttpResponse large{431, "text/plain; charset=utf-8", "request head too large\n"};
    c.respond(head_of(large, false) + large.body, Clock::now());
    return;
  }
  bool allow = false, head_only = false;
  const HttpResponse response = answer(c.in, allow, head_only);
  c.respond(head_of(response, allow) + (head_only ? std::string() : response.body), Clock::now());
}

HttpResponse HttpServer::answer(const std::string& request, bool& allow, bool& head_only) {
  // The request line: METHOD SP TARGET SP HTTP/1.x
  const std::string line = request.substr(0, request.find_first_of("\r\n"));
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string::npos ? std::string::npos : line.find(' ', sp1 + 1);
  if (sp2 == std::string::npos || line.compare(sp2 + 1, 7, "HTTP/1.") != 0 || line[sp1 + 1] != '/') {
    return {400, "text/plain; charset=utf-8", "malformed request line\n"};
  }
  const std::string method = line.substr(0, sp1);
  std::string path = line.substr(sp1 + 1, sp2 - sp1 - 1);
  path = path.substr(0, path.find('?'));
  if (method != "GET" && method != "HEAD") {
    allow = true;
    return {405, "text/plain; charset=utf-8", "only GET and HEAD are served\n"};
  }
  head_only = method == "HEAD";
  try {
    return handler_({path, header_value(request, "authorization")});
  } catch (const std::exception& e) {
    host::log().error("serve.http: GET {} failed: {}", path, e.what());
    return {500, "text/plain; charset=utf-8", std::string(e.what()) + "\n"};
  }
}

}  // namespace zkp::observe
