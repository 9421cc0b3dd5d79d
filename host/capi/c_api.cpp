// The C API of libzkpipe (abi/zkpipe/zkp_host.h): each function checks its arguments
// and the struct_size of every struct it reads, calls zkp::host::Host, and turns any
// exception into a status and a message (zkp::sdk::guard). Nothing else is exported.
#include <zkpipe/zkp_host.h>

#include <zkpipe/host/host.hpp>
#include "log_sink.hpp"
#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

struct zkp_host_t {
  std::unique_ptr<zkp::host::Host> host;
};

namespace {

using zkp::sdk::Error;
using zkp::sdk::guard;
using zkp::sdk::require_struct;

zkp::host::Host& checked(zkp_host_t* host) {
  if (host == nullptr || !host->host) throw Error(ZKP_ERR_INVALID_ARGUMENT, "host is NULL");
  return *host->host;
}

template <class T>
void require_out(T* out, const char* type_name) {
  require_struct(static_cast<const T*>(out), type_name);
}

// Writes `value` into the caller's struct, keeping the caller's header: a caller built
// against a newer header may have a larger struct; we write only what we know.
template <class T>
void write_struct(T* out, const T& value) {
  const zkp_struct_header_t header = out->header;
  *out = value;
  out->header = header;
}

// The first release's zkp_host_stats_t ended at workers_per_device; admission_stalls
// came after it. A caller built against that header passes the shorter struct_size.
constexpr size_t kFirstReleaseStatsSize = offsetof(zkp_host_stats_t, admission_stalls);

}  // namespace

extern "C" {

ZKP_EXPORT uint32_t zkp_host_abi_version(void) { return ZKP_ABI_VERSION; }

ZKP_EXPORT zkp_status_t zkp_host_create(const char* config_path, const char* const* overrides,
                                        size_t override_count, zkp_host_t** out, zkp_error_t* err) {
  return guard(err, [&] {
    if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
    if (overrides == nullptr && override_count != 0) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "overrides is NULL but override_count is " + std::to_string(override_count));
    }
    std::vector<std::string> list;
    for (size_t i = 0; i < override_count; ++i) {
      if (overrides[i] == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "override " + std::to_string(i) + " is NULL");
      list.emplace_back(overrides[i]);
    }
    std::optional<std::filesystem::path> file;
    if (config_path != nullptr) file = config_path;
    auto host = std::make_unique<zkp_host_t>();
    host->host = std::make_unique<zkp::host::Host>(zkp::host::Config::load(file, list));
    *out = host.release();
  });
}

ZKP_EXPORT zkp_status_t zkp_host_load_key(zkp_host_t* host, const zkp_key_source_t* source,
                                          uint64_t* key_id, zkp_error_t* err) {
  return guard(err, [&] {
    require_struct(source, "zkp_key_source_t", offsetof(zkp_key_source_t, format));  // format came later
    if (key_id == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "key_id is NULL");
    *key_id = checked(host).load_key(*source);
  });
}

ZKP_EXPORT zkp_status_t zkp_host_key_info(zkp_host_t* host, uint64_t key_id, zkp_key_info_t* out,
                                          zkp_error_t* err) {
  return guard(err, [&] {
    // The first release's zkp_key_info_t ends at public_size (synthesized_bytes came after it).
    require_struct(static_cast<const zkp_key_info_t*>(out), "zkp_key_info_t",
                   offsetof(zkp_key_info_t, synthesized_bytes));
    zkp::sdk::write_covered(out, checked(host).key_info(key_id));
  });
}

ZKP_EXPORT zkp_status_t zkp_host_submit(zkp_host_t* host, const zkp_job_t* job, uint64_t* job_id,
                                        zkp_error_t* err) {
  return guard(err, [&] {
    require_struct(job, "zkp_job_t", offsetof(zkp_job_t, on_input_released));  // on_input_released came later
    if (job_id == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "job_id is NULL");
    *job_id = checked(host).submit(*job);
  });
}

ZKP_EXPORT zkp_status_t zkp_host_cancel(zkp_host_t* host, uint64_t job_id, zkp_error_t* err) {
  return guard(err, [&] { checked(host).cancel(job_id); });
}

ZKP_EXPORT zkp_status_t zkp_host_wait(zkp_host_t* host, uint64_t job_id, int64_t timeout_ms,
                                      zkp_error_t* err) {
  return guard(err, [&] { checked(host).wait(job_id, timeout_ms); });
}

ZKP_EXPORT zkp_status_t zkp_host_stats(zkp_host_t* host, zkp_host_stats_t* out, zkp_error_t* err) {
  return guard(err, [&] {
    require_struct(static_cast<const zkp_host_stats_t*>(out), "zkp_host_stats_t", kFirstReleaseStatsSize);
    zkp::sdk::write_covered(out, checked(host).stats());
  });
}

ZKP_EXPORT zkp_status_t zkp_host_device_info(zkp_host_t* host, uint32_t gpu_index, zkp_device_info_t* out,
                                             zkp_error_t* err) {
  return guard(err, [&] {
    require_out(out, "zkp_device_info_t");
    write_struct(out, checked(host).device_info(gpu_index));
  });
}

ZKP_EXPORT zkp_status_t zkp_host_pacer_status(zkp_host_t* host, char* buf, size_t capacity, size_t* needed,
                                              zkp_error_t* err) {
  return guard(err, [&] {
    if (buf == nullptr && capacity != 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "buf is NULL but capacity is not 0");
    const std::string line = checked(host).pacer_status();
    if (needed != nullptr) *needed = line.size();
    if (capacity > 0) {
      const size_t n = std::min(line.size(), capacity - 1);
      line.copy(buf, n);
      buf[n] = '\0';
    }
  });
}

ZKP_EXPORT zkp_status_t zkp_host_shutdown(zkp_host_t* host, zkp_shutdown_mode_t mode, zkp_error_t* err) {
  return guard(err, [&] { checked(host).shutdown(mode); });
}

ZKP_EXPORT void zkp_host_destroy(zkp_host_t* host, zkp_shutdown_mode_t mode) {
  if (host == nullptr) return;
  auto err = zkp::sdk::make_struct<zkp_error_t>();
  if (host->host && host->host->on_completion_thread()) {
    zkp::sdk::set_error(&err, ZKP_ERR_INVALID_ARGUMENT,
                        "zkp_host_destroy was called from the completion thread (inside a callback); "
                        "the host is left running");
  } else {
    std::unique_ptr<zkp_host_t> owned(host);
    guard(&err, [&] {
      if (owned->host) owned->host->shutdown(mode);
    });
    owned->host.reset();  // ~Host drains whatever a failed shutdown left
  }
  if (err.status != ZKP_OK) {
    try {
      zkp::host::log().error("{}", err.message);
    } catch (...) {
      // Logging failed too; there is no one left to tell.
    }
  }
}

ZKP_EXPORT zkp_status_t zkp_host_verify(zkp_host_t* host, uint64_t key_id, const uint8_t* proof, size_t proof_size,
                                        const uint8_t* public_inputs, size_t public_size, zkp_error_t* err) {
  return guard(err, [&] {
    zkp::host::Host& h = checked(host);
    if (proof == nullptr && proof_size != 0) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "proof is NULL but proof_size is not 0");
    }
    if (public_inputs == nullptr && public_size != 0) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "public_inputs is NULL but public_size is not 0");
    }
    h.verify(key_id, {proof, proof_size}, {public_inputs, public_size});
  });
}

ZKP_EXPORT zkp_status_t zkp_host_unload_key(zkp_host_t* host, uint64_t key_id, zkp_error_t* err) {
  return guard(err, [&] { checked(host).unload_key(key_id); });
}

ZKP_EXPORT zkp_status_t zkp_host_set_log_sink(zkp_log_callback_t callback, void* user_data,
                                              zkp_log_level_t min_level, zkp_error_t* err) {
  return guard(err, [&] {
    zkp::host::LogSink* sink = zkp::host::log_sink();
    if (sink == nullptr) {
      throw Error(ZKP_ERR_UNSUPPORTED,
                  "zkp_host_set_log_sink: the process's 'zkpipe' logger was made by another copy of the host "
                  "(a second libzkpipe in the process); its lines cannot be routed from this one");
    }
    sink->set(callback, user_data, min_level);
  });
}

}  // extern "C"
