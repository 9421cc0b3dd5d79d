// zkp_file_bytes_read (file_bytes.h) over zkpipe's RegularFile (provers/core/formats): the same
// check `zkpipe prove` and every loader make, so a FIFO, /dev/zero or a directory given to
// `prover` or `verifier` is refused before anything is read (it used to block for ever on a
// FIFO and read /dev/zero until malloc failed).
#include "file_bytes.h"

#include "core/formats/error.hpp"
#include "core/formats/regular_file.hpp"
#include "services/output_files.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <span>
#include <string>

namespace {

int fail(const std::string& message, char* error, size_t error_size) {
  std::snprintf(error, error_size, "%s", message.c_str());
  return -1;
}

}  // namespace

extern "C" int zkp_file_bytes_read(const char* path, zkp_file_bytes_t* out, char* error, size_t error_size) {
  out->data = nullptr;
  out->size = 0;
  try {
    const zkp::RegularFile file(path);
    if (file.size() >= SIZE_MAX) return fail("read: " + std::string(std::strerror(ENOMEM)), error, error_size);
    const auto size = static_cast<size_t>(file.size());
    char* data = static_cast<char*>(std::malloc(size + 1));
    if (data == nullptr) return fail("read: " + std::string(std::strerror(ENOMEM)), error, error_size);
    try {
      file.read(0, std::span<std::byte>(reinterpret_cast<std::byte*>(data), size));
    } catch (...) {
      std::free(data);
      throw;
    }
    data[size] = '\0';
    out->data = data;
    out->size = size;
    return 0;
  } catch (const zkp::IoError& e) {
    // "PATH: cannot open: No such file or directory": rapidsnark's FileLoader says
    // "open: No such file or directory", which scripts may match; keep its words.
    const std::string message = e.what();
    const std::string prefix = std::string(path) + ": cannot ";
    return fail(message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message, error, error_size);
  } catch (const std::exception& e) {  // FormatError: "PATH: is a FIFO, not a regular file (...)"
    return fail(e.what(), error, error_size);
  }
}

extern "C" int zkp_file_bytes_write_pair(const char* path1, const char* data1, size_t size1, const char* path2,
                                         const char* data2, size_t size2, char* error, size_t error_size) {
  try {
    zkp::services::write_files_together({{path1, std::string(data1, size1)}, {path2, std::string(data2, size2)}});
    return 0;
  } catch (const std::exception& e) {
    return fail(e.what(), error, error_size);
  }
}

extern "C" void zkp_file_bytes_free(zkp_file_bytes_t* bytes) {
  std::free(bytes->data);
  bytes->data = nullptr;
  bytes->size = 0;
}
