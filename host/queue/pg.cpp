#include "pg.hpp"

#include <libpq-fe.h>

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace zkp::queue {

namespace {

// libpq's message on one line (its hints come on a second, tab-indented one), so that a log
// line or a zkp_error_t holds all of it.
std::string trimmed(const char* message) {
  std::string s;
  for (const char* p = message != nullptr ? message : ""; *p != '\0'; ++p) {
    if (*p == '\n' || *p == '\t') {
      if (!s.empty() && s.back() != ' ') s += ' ';
    } else {
      s += *p;
    }
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void append_quoted(std::string& out, const std::string& s) {
  out += '"';
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  out += '"';
}

// Why a connection attempt failed, from libpq's message (a failed connection carries no
// SQLSTATE): the server's refusals are recognised by their wording, which PostgreSQL has kept
// since 9.x; anything else (no server on the socket or port, a timeout, a name that does not
// resolve, a server starting up or shutting down, too many clients) may pass.
[[noreturn]] void throw_connect_failure(const std::string& what, const std::string& message) {
  static const char* const kRefusals[] = {"authentication failed", "no pg_hba.conf entry", "does not exist",
                                          "not permitted to log in", "permission denied", "no password supplied",
                                          "password is required"};
  for (const char* r : kRefusals) {
    if (message.find(r) != std::string::npos) throw RefusedError(what + " (refused): " + message);
  }
  throw UnavailableError(what + " (unavailable): " + message);
}

}  // namespace

std::string text_array(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    append_quoted(out, items[i]);
  }
  out += '}';
  return out;
}

std::string int_array(const std::vector<uint64_t>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(items[i]);
  }
  out += '}';
  return out;
}

Result::Result(Result&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
Result& Result::operator=(Result&& o) noexcept {
  if (this != &o) {
    if (r_ != nullptr) PQclear(r_);
    r_ = o.r_;
    o.r_ = nullptr;
  }
  return *this;
}
Result::~Result() {
  if (r_ != nullptr) PQclear(r_);
}
int Result::rows() const { return PQntuples(r_); }
bool Result::is_null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
std::string Result::text(int row, int col) const {
  return is_null(row, col) ? std::string() : std::string(PQgetvalue(r_, row, col), PQgetlength(r_, row, col));
}
int64_t Result::integer(int row, int col) const {
  return is_null(row, col) ? 0 : std::strtoll(PQgetvalue(r_, row, col), nullptr, 10);
}
double Result::real(int row, int col) const {
  return is_null(row, col) ? 0.0 : std::strtod(PQgetvalue(r_, row, col), nullptr);
}
std::string Result::bytea(int row, int col) const {
  if (is_null(row, col)) return {};
  size_t n = 0;
  unsigned char* raw = PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(r_, row, col)), &n);
  if (raw == nullptr) throw Error("cannot decode a bytea value (out of memory)");
  std::string out(reinterpret_cast<const char*>(raw), n);
  PQfreemem(raw);
  return out;
}
uint64_t Result::affected() const { return std::strtoull(PQcmdTuples(r_), nullptr, 10); }

namespace {

// Where the passwords of `url` are, as [begin, end) byte ranges: the userinfo's after its ':'
// in a URI (postgresql://user:PASSWORD@host; up to the last '@', so an unencoded '@' or '/' in
// the password is masked too), and the value of every password=... (a URI's query parameter,
// or the keyword/value form, quoted or not). Works on URLs that do not parse.
std::vector<std::pair<size_t, size_t>> password_ranges(const std::string& url) {
  std::vector<std::pair<size_t, size_t>> out;
  if (const size_t scheme = url.find("://"); scheme != std::string::npos) {
    const size_t start = scheme + 3;
    const size_t at = url.rfind('@');
    if (at != std::string::npos && at > start) {
      const size_t colon = url.find(':', start);
      if (colon != std::string::npos && colon < at) out.emplace_back(colon + 1, at);
    }
  }
  constexpr std::string_view kKey = "password=";
  for (size_t key = url.find(kKey); key != std::string::npos; key = url.find(kKey, key + 1)) {
    if (key != 0 && std::string_view(" \t?&").find(url[key - 1]) == std::string_view::npos) continue;
    const size_t value = key + kKey.size();
    size_t end = value;
    if (value < url.size() && url[value] == '\'') {
      for (end = value + 1; end < url.size() && url[end] != '\''; ++end) {
        if (url[end] == '\\') ++end;
      }
      end = std::min(end + 1, url.size());
    } else {
      end = std::min(url.find_first_of(" \t&", value), url.size());
    }
    out.emplace_back(value, end);
  }
  return out;
}

// `text` with every password of `url` in it replaced by "***" (libpq quotes pieces of a URL it
// cannot parse, the password among them).
std::string without_passwords(std::string text, const std::string& url) {
  for (const auto& [begin, end] : password_ranges(url)) {
    if (end <= begin) continue;
    const std::string secret = url.substr(begin, end - begin);
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
      text.replace(at, secret.size(), "***");
    }
  }
  return text;
}

// libpq's words for a connection option it refuses before trying any server (fe-connect.c:
// "invalid sslmode value", "invalid port number", ...): a mistake in the URL, not an outage.
bool is_option_error(const std::string& message) {
  static const char* const kOptionErrors[] = {"invalid port number", "invalid integer value",
                                              "could not match", "invalid SSL protocol version range",
                                              "for minimum SSL protocol version",
                                              "for maximum SSL protocol version", "invalid connection option",
                                              "value \"", "invalid URI query parameter"};
  for (const char* e : kOptionErrors) {
    if (message.find(e) != std::string::npos) return true;
  }
  // "invalid sslmode value: \"bogus\"", "invalid gssencmode value: ...", any "invalid KEY value:".
  const size_t invalid = message.find("invalid ");
  return invalid != std::string::npos && message.find(" value: ", invalid) != std::string::npos;
}

// The URL's syntax, checked before any connection is tried.
void check_url(const std::string& url) {
  char* message = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &message);
  if (options != nullptr) {
    PQconninfoFree(options);
    return;
  }
  const std::string why = message != nullptr ? trimmed(message) : "out of memory";
  PQfreemem(message);
  throw UrlError("the queue URL '" + redacted_url(url) + "' does not parse: " + without_passwords(why, url));
}

}  // namespace

std::string redacted_url(const std::string& url) {
  std::string out = url;
  std::vector<std::pair<size_t, size_t>> ranges = password_ranges(url);
  std::sort(ranges.begin(), ranges.end());
  for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) {  // from the end: earlier offsets stay valid
    if (it->second > it->first) out.replace(it->first, it->second - it->first, "***");
  }
  return out;
}

Connection::Connection(const std::string& url) : c_((check_url(url), PQconnectdb(url.c_str()))) {
  if (c_ == nullptr) throw Error("libpq could not allocate a connection");
  if (PQstatus(c_) != CONNECTION_OK) {
    const std::string message = without_passwords(trimmed(PQerrorMessage(c_)), url);
    PQfinish(c_);
    // sslmode=bogus parses (any text is a value) and fails here, before any server is tried:
    // a configuration error (exit 2), not "database unavailable, retry later" (75).
    if (is_option_error(message)) throw UrlError("the queue URL '" + redacted_url(url) + "' is not valid: " + message);
    throw_connect_failure("cannot connect to the queue database", message);
  }
  // Our own notices (e.g. "schema already exists, skipping") are not worth a line on stderr.
  PQsetNoticeProcessor(c_, [](void*, const char*) {}, nullptr);
}

Connection::~Connection() { PQfinish(c_); }

Result Connection::exec(const std::string& sql, const std::vector<Param>& params) {
  pg_result* r = nullptr;
  if (params.empty()) {
    r = PQexec(c_, sql.c_str());
  } else {
    std::vector<const char*> values(params.size());
    std::vector<int> lengths(params.size()), formats(params.size());
    for (size_t i = 0; i < params.size(); ++i) {
      values[i] = params[i].value ? params[i].value->data() : nullptr;
      lengths[i] = params[i].value ? static_cast<int>(params[i].value->size()) : 0;
      formats[i] = params[i].binary ? 1 : 0;
    }
    r = PQexecParams(c_, sql.c_str(), static_cast<int>(params.size()), nullptr, values.data(), lengths.data(),
                     formats.data(), 0);
  }
  Result result(r);
  const ExecStatusType status = r != nullptr ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    Error e("queue database: " + trimmed(r != nullptr ? PQresultErrorMessage(r) : PQerrorMessage(c_)),
            state != nullptr ? state : "");
    if (connection_lost(*this, e)) throw UnavailableError(std::string(e.what()) + " (unavailable)", e.sqlstate());
    throw e;
  }
  return result;
}

std::optional<Notification> Connection::wait_notification(std::chrono::milliseconds timeout, int wake_fd) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (PQconsumeInput(c_) == 0) throw UnavailableError("queue database (unavailable): " + trimmed(PQerrorMessage(c_)));
    if (PGnotify* n = PQnotifies(c_); n != nullptr) {
      Notification out{n->relname, n->extra != nullptr ? n->extra : ""};
      PQfreemem(n);
      return out;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd fds[2] = {{PQsocket(c_), POLLIN, 0}, {wake_fd, POLLIN, 0}};
    if (poll(fds, wake_fd >= 0 ? 2 : 1, static_cast<int>(left.count())) < 0 && errno != EINTR) {
      throw Error("poll on the queue connection failed");
    }
    if (wake_fd >= 0 && (fds[1].revents & POLLIN) != 0) return std::nullopt;
  }
}

bool Connection::ok() const { return PQstatus(c_) == CONNECTION_OK; }

void Connection::reset() {
  PQreset(c_);
  if (PQstatus(c_) != CONNECTION_OK) throw_connect_failure("cannot reconnect to the queue database", trimmed(PQerrorMessage(c_)));
  PQsetNoticeProcessor(c_, [](void*, const char*) {}, nullptr);
}

bool connection_lost(const Connection& c, const Error& e) {
  if (dynamic_cast<const UnavailableError*>(&e) != nullptr || !c.ok()) return true;
  const std::string& state = e.sqlstate();
  return state.empty() || state.rfind("08", 0) == 0 || state.rfind("57P", 0) == 0;
}

Transaction::~Transaction() {
  if (done_) return;
  try {
    c_.exec("ROLLBACK");
  } catch (const Error&) {
    // The connection is broken; the server rolls the transaction back when it notices.
  }
}

void Transaction::commit() {
  c_.exec("COMMIT");
  done_ = true;
}

}  // namespace zkp::queue
