#include "queue_client.hpp"

#include <zkpipe/sdk/error.hpp>
#include <zkpipe/zkp_queue.h>

#include "services/names.hpp"

#include <filesystem>
#include <optional>
#include <vector>

namespace zkp::serve {

namespace v1 = zkpipe::v1;

namespace {

void check(zkp_status_t status, const zkp_error_t& err) {
  if (status != ZKP_OK) throw sdk::Error(status, err.message);
}

zkp_curve_t curve_of(const std::string& name) {
  if (name.empty()) return ZKP_CURVE_UNKNOWN;
  if (const std::optional<zkp_curve_t> curve = services::curve_from_name(name)) return *curve;
  throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "curve '" + name + "' is unknown (\"\", bn128 or bls12381)");
}

// The path as the workers will look for it: absolute, from the server's working directory
// (a relative path means nothing to a worker elsewhere).
std::string absolute(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

}  // namespace

struct QueueClient::Handle {
  zkp_queue_t* queue = nullptr;
};

QueueClient::QueueClient(const std::string& url) : handle_(std::make_unique<Handle>()) {
  zkp_error_t err = sdk::make_struct<zkp_error_t>();
  check(zkp_queue_connect(url.c_str(), &handle_->queue, &err), err);
}

QueueClient::~QueueClient() { zkp_queue_disconnect(handle_->queue); }

uint64_t QueueClient::enqueue(const v1::EnqueueRequest& request) {
  const int n = request.witnesses_size() + request.witness_paths_size();
  if (n == 0) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the job has no witnesses and no witness paths (one per partition)");
  std::vector<std::string> paths;
  for (const std::string& p : request.witness_paths()) paths.push_back(absolute(p));
  std::vector<zkp_queue_partition_t> parts;
  for (const std::string& w : request.witnesses()) {
    auto part = sdk::make_struct<zkp_queue_partition_t>();
    part.witness_bytes = reinterpret_cast<const uint8_t*>(w.data());
    part.witness_size = w.size();
    parts.push_back(part);
  }
  for (const std::string& p : paths) {
    auto part = sdk::make_struct<zkp_queue_partition_t>();
    part.witness_path = p.c_str();
    parts.push_back(part);
  }
  const std::string key = absolute(request.key_path());
  auto job = sdk::make_struct<zkp_queue_job_t>();
  job.key_path = key.c_str();
  job.key_format = request.format() == v1::KEY_FORMAT_BELLPERSON ? ZKP_KEY_FORMAT_BELLPERSON : ZKP_KEY_FORMAT_ZKEY;
  job.priority = request.priority();
  job.gpu_index = request.has_gpu_index() ? request.gpu_index() : -1;
  job.curve = curve_of(request.curve());
  job.partitions = parts.data();
  job.partition_count = static_cast<uint32_t>(parts.size());
  zkp_error_t err = sdk::make_struct<zkp_error_t>();
  uint64_t id = 0;
  std::lock_guard lock(mu_);
  check(zkp_queue_enqueue(handle_->queue, &job, &id, &err), err);
  return id;
}

v1::JobStatusResponse QueueClient::status(const v1::JobStatusRequest& request) {
  zkp_error_t err = sdk::make_struct<zkp_error_t>();
  auto s = sdk::make_struct<zkp_queue_job_status_t>();
  v1::JobStatusResponse out;
  std::lock_guard lock(mu_);
  check(zkp_queue_job_status(handle_->queue, request.job_id(), &s, &err), err);
  out.set_job_id(s.job_id);
  out.set_done(s.done != 0);
  out.set_partitions(s.partitions);
  out.set_succeeded(s.succeeded);
  out.set_failed(s.failed);
  out.set_leased(s.leased);
  out.set_priority(s.priority);
  out.set_dropped(s.dropped);
  if (!request.results()) return out;
  for (uint32_t i = 0; i < s.partitions; ++i) {
    auto r = sdk::make_struct<zkp_queue_result_t>();
    check(zkp_queue_result(handle_->queue, request.job_id(), i, &r, &err), err);
    v1::QueueResult* q = out.add_results();  // copied now: r's pointers last until the next call
    q->set_partition(i);
    q->set_written(r.written != 0);
    if (r.written == 0) continue;
    q->set_status(static_cast<int32_t>(r.status));
    q->set_status_name(zkp_status_name(r.status));
    if (r.message != nullptr) q->set_message(r.message);
    if (r.worker != nullptr) q->set_worker(r.worker);
    if (r.proof != nullptr) q->set_proof(reinterpret_cast<const char*>(r.proof), r.proof_size);
    if (r.public_inputs != nullptr) q->set_public_inputs(reinterpret_cast<const char*>(r.public_inputs), r.public_size);
    if (r.proof_json != nullptr) q->set_proof_json(r.proof_json);
    if (r.public_json != nullptr) q->set_public_json(r.public_json);
    q->set_prove_ns(r.prove_ns);
  }
  return out;
}

}  // namespace zkp::serve
