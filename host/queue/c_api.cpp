// The job queue's C API (abi/zkpipe/zkp_queue.h) over queue::Store: each function
// checks its arguments and struct sizes, runs under the handle's mutex, and turns every
// exception into a status and a message (zkp::sdk::guard). Database failures are
// queue::Error: an unreachable server becomes ZKP_QUEUE_ERR_UNAVAILABLE, a refused connection
// ZKP_QUEUE_ERR_REFUSED, a schema at the wrong version ZKP_ERR_ABI_MISMATCH, a URL that does
// not parse ZKP_ERR_INVALID_ARGUMENT, and a refused statement ZKP_ERR_DEVICE.
#include <zkpipe/zkp_queue.h>

#include <zkpipe/sdk/error.hpp>

#include "schema.hpp"
#include "services/names.hpp"
#include "store.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

struct zkp_queue_t {
  std::mutex mu;  // one connection: calls take turns
  std::unique_ptr<zkp::queue::Store> store;
  zkp::queue::StoredResult last;  // what the last zkp_queue_result's pointers point into
};

namespace {

using zkp::sdk::Error;
using zkp::sdk::require_struct;

// guard(), with the store's errors mapped to their statuses first.
template <class Body>
zkp_status_t guarded(zkp_error_t* err, Body&& body) noexcept {
  return zkp::sdk::guard(err, [&] {
    try {
      body();
    } catch (const zkp::queue::SchemaError& e) {
      throw Error(ZKP_ERR_ABI_MISMATCH, e.what());
    } catch (const zkp::queue::UnavailableError& e) {
      throw Error(ZKP_QUEUE_ERR_UNAVAILABLE, e.what());
    } catch (const zkp::queue::RefusedError& e) {
      throw Error(ZKP_QUEUE_ERR_REFUSED, e.what());
    } catch (const zkp::queue::UrlError& e) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, e.what());
    } catch (const zkp::queue::Error& e) {
      throw Error(ZKP_ERR_DEVICE, e.what());
    }
  });
}

zkp::queue::Store& checked(zkp_queue_t* q) {
  if (q == nullptr || !q->store) throw Error(ZKP_ERR_INVALID_ARGUMENT, "queue is NULL");
  return *q->store;
}

// [under the handle's mutex] Runs `op` on the store. A call that finds the connection broken
// (the server restarted since the last call) connects again and runs once more; it fails with
// ZKP_QUEUE_ERR_UNAVAILABLE only if the server is still away. Only calls that are safe to
// repeat come here: reads. An enqueue is not (its first attempt may have committed), so it
// probes first.
template <class Op>
auto reviving(zkp::queue::Store& store, Op op) -> decltype(op()) {
  try {
    return op();
  } catch (const zkp::queue::Error& e) {
    if (!zkp::queue::connection_lost(store.connection(), e)) throw;
    store.connection().reset();
    return op();
  }
}

std::string absolute_file(const char* path, const std::string& what) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::canonical(path, ec);
  if (ec || !std::filesystem::is_regular_file(p, ec)) {
    throw Error(ZKP_ERR_NOT_FOUND, what + " '" + path + "' is no file");
  }
  return p.string();
}

const char* curve_name(zkp_curve_t c) {
  switch (c) {
    case ZKP_CURVE_UNKNOWN: return "";
    default:
      if (const zkp::services::CurveName* row = zkp::services::find_curve(c)) return row->fleet.data();
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "curve " + std::to_string(c) + " is no zkp_curve_t");
  }
}

// The fields every caller's zkp_queue_job_t has; max_attempts came later (covers()).
constexpr size_t kJobRequiredSize = offsetof(zkp_queue_job_t, partition_count) + sizeof(uint32_t);

zkp::queue::JobSpec to_spec(const zkp_queue_job_t& job) {
  if (job.key_path == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "key_path is NULL");
  if (job.partitions == nullptr || job.partition_count == 0) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "a job needs at least one partition (partitions is NULL or partition_count 0)");
  }
  if (job.key_format != ZKP_KEY_FORMAT_ZKEY && job.key_format != ZKP_KEY_FORMAT_BELLPERSON) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "key_format " + std::to_string(job.key_format) + " is no zkp_key_format_t");
  }
  if (job.gpu_index < -1) throw Error(ZKP_ERR_INVALID_ARGUMENT, "gpu_index is -1 (any) or a device index");
  zkp::queue::JobSpec spec;
  spec.key_path = absolute_file(job.key_path, "key");
  spec.key_format = zkp::services::key_format_name(job.key_format);
  spec.priority = job.priority;
  spec.gpu_index = job.gpu_index;
  spec.curve = curve_name(job.curve);
  if (zkp::sdk::covers(job.header, offsetof(zkp_queue_job_t, max_attempts) + sizeof job.max_attempts)) {
    if (job.max_attempts < 0 || job.max_attempts > INT32_MAX) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "max_attempts " + std::to_string(job.max_attempts) +
                                                " is 0 (the store's default) or a count of attempts");
    }
    spec.max_attempts = static_cast<int32_t>(job.max_attempts);
  }
  for (uint32_t i = 0; i < job.partition_count; ++i) {
    const zkp_queue_partition_t& p = job.partitions[i];
    const std::string name = "partition " + std::to_string(i);
    require_struct(&p, name.c_str());
    const bool by_path = p.witness_path != nullptr, by_bytes = p.witness_bytes != nullptr;
    if (by_path == by_bytes) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, name + ": set exactly one of witness_path and witness_bytes");
    }
    zkp::queue::PartitionInput in;
    if (by_path) {
      in.witness_path = absolute_file(p.witness_path, name + ": witness");
    } else {
      if (p.witness_size == 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, name + ": witness_size is 0");
      in.witness_bytes.assign(reinterpret_cast<const char*>(p.witness_bytes), p.witness_size);
    }
    spec.partitions.push_back(std::move(in));
  }
  return spec;
}

void write_status(zkp_queue_job_status_t* out, const zkp::queue::JobStatus& s) {
  const zkp_struct_header_t header = out->header;
  *out = zkp_queue_job_status_t{};
  out->header = header;
  out->job_id = s.id;
  out->done = s.state == "done" ? 1u : 0u;
  out->partitions = s.partitions;
  out->succeeded = s.succeeded;
  out->failed = s.failed;
  out->leased = s.leased;
  out->priority = s.priority;
  out->dropped = s.dropped;
}

const uint8_t* bytes_or_null(const std::string& s) {
  return s.empty() ? nullptr : reinterpret_cast<const uint8_t*>(s.data());
}

}  // namespace

extern "C" {

ZKP_EXPORT zkp_status_t zkp_queue_connect(const char* url, zkp_queue_t** out, zkp_error_t* err) {
  return guarded(err, [&] {
    if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
    if (url == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "url is NULL");
    auto q = std::make_unique<zkp_queue_t>();
    q->store = std::make_unique<zkp::queue::Store>(url);
    *out = q.release();
  });
}

ZKP_EXPORT void zkp_queue_disconnect(zkp_queue_t* queue) { delete queue; }

ZKP_EXPORT zkp_status_t zkp_queue_enqueue(zkp_queue_t* queue, const zkp_queue_job_t* job, uint64_t* job_id,
                                          zkp_error_t* err) {
  return guarded(err, [&] {
    zkp::queue::Store& store = checked(queue);
    require_struct(job, "job", kJobRequiredSize);
    if (job_id == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "job_id is NULL");
    const zkp::queue::JobSpec spec = to_spec(*job);
    std::lock_guard lock(queue->mu);
    // A round trip that cannot write anything: a connection that broke since the last call
    // is found here, and made again, rather than halfway through the job's transaction.
    reviving(store, [&] { return store.connection().exec("SELECT 1"); });
    *job_id = store.enqueue(spec);
  });
}

ZKP_EXPORT zkp_status_t zkp_queue_job_status(zkp_queue_t* queue, uint64_t job_id, zkp_queue_job_status_t* out,
                                             zkp_error_t* err) {
  return guarded(err, [&] {
    zkp::queue::Store& store = checked(queue);
    require_struct(out, "out");
    std::lock_guard lock(queue->mu);
    const std::optional<zkp::queue::JobStatus> s = reviving(store, [&] { return store.job(job_id); });
    if (!s) throw Error(ZKP_ERR_NOT_FOUND, "no job " + std::to_string(job_id) + " in the queue");
    write_status(out, *s);
  });
}

ZKP_EXPORT zkp_status_t zkp_queue_wait(zkp_queue_t* queue, uint64_t job_id, int64_t timeout_ms,
                                       zkp_queue_job_status_t* out, zkp_error_t* err) {
  return guarded(err, [&] {
    zkp::queue::Store& store = checked(queue);
    if (out != nullptr) require_struct(out, "out");
    if (timeout_ms < -1) throw Error(ZKP_ERR_INVALID_ARGUMENT, "timeout_ms is -1 (forever) or at least 0");
    // "Forever" is a century: wait_done counts down a steady_clock deadline.
    const std::chrono::milliseconds timeout(timeout_ms < 0 ? int64_t{100} * 365 * 24 * 3600 * 1000 : timeout_ms);
    std::lock_guard lock(queue->mu);
    const std::optional<zkp::queue::JobStatus> s = reviving(store, [&] { return store.wait_done(job_id, timeout); });
    if (!s) throw Error(ZKP_ERR_NOT_FOUND, "no job " + std::to_string(job_id) + " in the queue");
    if (out != nullptr) write_status(out, *s);
    if (s->state != "done") {
      throw Error(ZKP_ERR_TIMEOUT, "job " + std::to_string(job_id) + " is not done after " + std::to_string(timeout_ms) +
                                       " ms (" + std::to_string(s->succeeded + s->failed) + " of " +
                                       std::to_string(s->partitions) + " partitions have their result)");
    }
  });
}

ZKP_EXPORT zkp_status_t zkp_queue_result(zkp_queue_t* queue, uint64_t job_id, uint32_t partition,
                                         zkp_queue_result_t* out, zkp_error_t* err) {
  return guarded(err, [&] {
    zkp::queue::Store& store = checked(queue);
    require_struct(out, "out");
    std::lock_guard lock(queue->mu);
    std::optional<zkp::queue::StoredResult> r = reviving(store, [&] { return store.result(job_id, partition); });
    if (!r) {
      throw Error(ZKP_ERR_NOT_FOUND, "job " + std::to_string(job_id) + " has no partition " + std::to_string(partition));
    }
    queue->last = std::move(*r);
    const zkp::queue::StoredResult& s = queue->last;
    const zkp_struct_header_t header = out->header;
    *out = zkp_queue_result_t{};
    out->header = header;
    out->written = s.written ? 1u : 0u;
    out->status = s.status;
    out->message = s.message.c_str();
    out->worker = s.worker.c_str();
    out->proof = bytes_or_null(s.proof);
    out->proof_size = s.proof.size();
    out->public_inputs = bytes_or_null(s.public_inputs);
    out->public_size = s.public_inputs.size();
    out->proof_json = s.proof_json.c_str();
    out->public_json = s.public_json.c_str();
    out->prove_ns = s.prove_ns;
  });
}

}  // extern "C"
