// A thin RAII layer over libpq: one connection, parameterized statements, transactions and
// LISTEN/NOTIFY. Only what the job store needs; every failure is a queue::Error carrying
// libpq's message (and the SQLSTATE, when the server sent one).
//
// Threading: a Connection is used by one thread at a time (libpq's rule); each thread that
// talks to the store opens its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct pg_conn;
struct pg_result;

namespace zkp::queue {

class Error : public std::runtime_error {
 public:
  Error(const std::string& message, std::string sqlstate = "")
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

// The failures a caller handles differently from a refused statement (queue::Error itself):
//   UnavailableError  the server cannot be reached, or the connection was lost (it restarted,
//                     failed over, is starting up or shutting down, the network broke): a
//                     later try may work. connection_lost() errors are thrown as this.
//   RefusedError      the server answered and refused the connection: authentication failed,
//                     no pg_hba.conf entry, an unknown role or database, a role that may not
//                     log in. Trying again will not help; the URL or the server's set-up is wrong.
//   UrlError          the URL does not parse (libpq's conninfo syntax), or holds an option value
//                     libpq refuses before trying a server (sslmode=bogus, a port that is no
//                     number): the set-up is wrong. Its message shows the URL without passwords.
class UnavailableError : public Error {
 public:
  using Error::Error;
};
class RefusedError : public Error {
 public:
  using Error::Error;
};
class UrlError : public Error {
 public:
  using Error::Error;
};

// `url` with every password in it (postgresql://user:PASSWORD@..., password=...) replaced by
// "***", for messages and logs; works on a URL that does not parse.
std::string redacted_url(const std::string& url);

// One statement parameter: SQL NULL, text, or binary (a bytea sent as raw bytes).
struct Param {
  std::optional<std::string> value;
  bool binary = false;

  static Param null() { return {}; }
  static Param text(std::string v) { return {std::move(v), false}; }
  static Param bytes(std::string v) { return {std::move(v), true}; }
  static Param integer(int64_t v) { return {std::to_string(v), false}; }
};

// A text[] / bigint[] literal ('{"a","b"}'), for `= ANY($n::text[])`.
std::string text_array(const std::vector<std::string>& items);
std::string int_array(const std::vector<uint64_t>& items);

class Result {
 public:
  explicit Result(pg_result* r) : r_(r) {}
  Result(Result&&) noexcept;
  Result& operator=(Result&&) noexcept;
  ~Result();

  int rows() const;
  bool is_null(int row, int col) const;
  std::string text(int row, int col) const;  // "" for NULL
  int64_t integer(int row, int col) const;   // 0 for NULL
  double real(int row, int col) const;       // 0 for NULL
  std::string bytea(int row, int col) const;  // a bytea column's bytes (text-format result)
  uint64_t affected() const;                  // rows an INSERT/UPDATE/DELETE touched

 private:
  pg_result* r_;
};

struct Notification {
  std::string channel;
  std::string payload;
};

class Connection {
 public:
  // `url`: a libpq connection URI or key=value string (postgresql://user@host:port/db).
  // Throws UrlError, RefusedError or UnavailableError.
  explicit Connection(const std::string& url);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one statement (several when `params` is empty and the text holds more, as libpq
  // allows for PQexec). Throws UnavailableError when the connection failed, Error when the
  // server refused the statement.
  Result exec(const std::string& sql, const std::vector<Param>& params = {});

  // Waits up to `timeout` for a NOTIFY on a channel this connection LISTENs on. A readable
  // `wake_fd` (>= 0; an eventfd, say) ends the wait early, with nullopt; it is not read.
  std::optional<Notification> wait_notification(std::chrono::milliseconds timeout, int wake_fd = -1);

  // False once the connection is broken (the server restarted or went away): every later call
  // fails until reset().
  bool ok() const;
  // Connects again with the same parameters (PQreset). Throws UnavailableError (or
  // RefusedError) when the server still cannot be reached. A LISTEN does not survive it: the caller issues it again.
  void reset();

 private:
  pg_conn* c_;
};

// Whether `e`, thrown by a call on `c`, is the connection failing rather than the server
// refusing a statement: the connection is down, or the error has no SQLSTATE (libpq's own: the
// socket closed), or its SQLSTATE is a connection exception (class 08) or an operator
// intervention (57P: the server shutting down, crashing, or starting up). A server stopped
// with -m immediate ends its sessions before libpq marks the connection bad, so ok() alone
// does not tell until a call has failed.
bool connection_lost(const Connection& c, const Error& e);

// BEGIN on construction; ROLLBACK on destruction unless commit() ran.
class Transaction {
 public:
  explicit Transaction(Connection& c) : c_(c) { c_.exec("BEGIN"); }
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& c_;
  bool done_ = false;
};

}  // namespace zkp::queue
