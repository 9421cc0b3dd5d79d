// Errors inside a plugin are C++ exceptions; at the C boundary they become a status
// code plus a message in the caller's zkp_error_t. `guard` is the one place that
// conversion happens, so no exception ever crosses the ABI.
#pragma once

#include <zkpipe/zkp_common.h>

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

namespace zkp::sdk {

// An error with the status code it maps to at the boundary.
class Error : public std::runtime_error {
 public:
  Error(zkp_status_t status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  zkp_status_t status() const noexcept { return status_; }

 private:
  zkp_status_t status_;
};

// A zero-filled ABI struct with its {struct_size, struct_version} header set.
template <class T>
T make_struct() noexcept {
  T value{};
  value.header.struct_size = static_cast<uint32_t>(sizeof(T));
  value.header.struct_version = 1;
  return value;
}

// Writes status and message into a caller's error record (which may be NULL).
inline void set_error(zkp_error_t* err, zkp_status_t status, std::string_view message) noexcept {
  if (err == nullptr || err->header.struct_size < sizeof(zkp_error_t)) return;
  err->status = status;
  const size_t n = message.size() < ZKP_ERROR_MESSAGE_CAPACITY - 1 ? message.size()
                                                                   : ZKP_ERROR_MESSAGE_CAPACITY - 1;
  if (n > 0) std::memcpy(err->message, message.data(), n);  // data() may be NULL when n == 0
  err->message[n] = '\0';
}

inline void clear_error(zkp_error_t* err) noexcept { set_error(err, ZKP_OK, {}); }

// Runs `body` and converts any exception into a status and message. The returned
// status is ZKP_OK only if body returned normally.
template <class Body>
zkp_status_t guard(zkp_error_t* err, Body&& body) noexcept {
  try {
    body();
    clear_error(err);
    return ZKP_OK;
  } catch (const Error& e) {
    set_error(err, e.status(), e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    set_error(err, ZKP_ERR_OUT_OF_MEMORY, "out of host memory");
    return ZKP_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_error(err, ZKP_ERR_INTERNAL, e.what());
    return ZKP_ERR_INTERNAL;
  } catch (...) {
    set_error(err, ZKP_ERR_INTERNAL, "unknown exception");
    return ZKP_ERR_INTERNAL;
  }
}

// Checks that a caller's struct is at least `min_size` bytes (default: the whole layout
// this code knows). A struct whose later fields are optional passes the size of the
// fields it must have; the reader then asks covers() before touching the others.
template <class T>
void require_struct(const T* p, const char* type_name, size_t min_size = sizeof(T)) {
  if (p == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, std::string(type_name) + " is NULL");
  if (p->header.struct_size < min_size) {
    throw Error(ZKP_ERR_ABI_MISMATCH, std::string(type_name) + " has struct_size " +
                                          std::to_string(p->header.struct_size) + ", expected at least " +
                                          std::to_string(min_size));
  }
}

// Whether a struct its writer sized with `header` holds the bytes [0, end): structs only
// grow at the end, so a field exists for the writer when its end is within struct_size.
//   covers(out->header, offsetof(zkp_prove_output_t, flags) + sizeof out->flags)
inline bool covers(const zkp_struct_header_t& header, size_t end) noexcept { return header.struct_size >= end; }

// Writes `value` into a caller's struct as far as its struct_size covers (an older caller's
// struct ends before the fields added since), keeping the caller's header.
template <class T>
void write_covered(T* out, const T& value) {
  const zkp_struct_header_t header = out->header;
  std::memcpy(static_cast<void*>(out), &value, std::min<size_t>(header.struct_size, sizeof(T)));
  out->header = header;
}

}  // namespace zkp::sdk
