#include "service.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>
#include <zkpipe/zkp_queue.h>  // the job store's statuses (Enqueue, JobStatus)

#include "services/names.hpp"
#include "streamed_request.hpp"

#include <algorithm>
#include <optional>

namespace zkp::serve {

namespace v1 = zkpipe::v1;

namespace {

constexpr const char* kVersion = ZKPIPE_VERSION;

void fill_key(const services::KeyEntry& k, v1::KeyInfo* out) {
  out->set_key_id(k.id);
  out->set_path(k.path);
  out->set_format(k.format == ZKP_KEY_FORMAT_BELLPERSON ? v1::KEY_FORMAT_BELLPERSON : v1::KEY_FORMAT_ZKEY);
  out->set_curve(std::string(services::snarkjs_curve_name(k.info.curve)));
  out->set_n_vars(k.info.n_vars);
  out->set_n_public(k.info.n_public);
  out->set_domain_size(k.info.domain_size);
  out->set_synthesis_bytes(k.info.synthesis_bytes);
  out->set_device_bytes(k.info.device_bytes);
  out->set_witness_generator(k.witness_generator);
  out->set_proof_size(k.info.proof_size);
  out->set_loaded_unix_ms(k.loaded_unix_ms);
  out->set_load_ns(k.load_ns);
  out->set_jobs_submitted(k.jobs_submitted);
}

grpc::Status failure(grpc::ServerContext* context, zkp_status_t status, const std::string& message,
                     std::optional<grpc::StatusCode> code = std::nullopt) {
  context->AddTrailingMetadata("zkp-status", std::to_string(status));
  return {code.value_or(status_mapping(status)), message};
}

}  // namespace

grpc::StatusCode status_mapping(zkp_status_t status) {
  switch (status) {
    case ZKP_OK: return grpc::StatusCode::OK;
    case ZKP_ERR_INVALID_ARGUMENT:
    case ZKP_ERR_BAD_INPUT:
    case ZKP_ERR_UNSATISFIED_WITNESS: return grpc::StatusCode::INVALID_ARGUMENT;
    case ZKP_ERR_NOT_FOUND: return grpc::StatusCode::NOT_FOUND;
    case ZKP_ERR_ABI_MISMATCH: return grpc::StatusCode::FAILED_PRECONDITION;
    case ZKP_ERR_OUT_OF_MEMORY:
    case ZKP_ERR_BUDGET_EXHAUSTED: return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case ZKP_ERR_DEVICE:
    case ZKP_ERR_DEVICE_LOST: return grpc::StatusCode::UNAVAILABLE;
    case ZKP_ERR_CANCELLED: return grpc::StatusCode::CANCELLED;
    case ZKP_ERR_UNSUPPORTED: return grpc::StatusCode::UNIMPLEMENTED;
    case ZKP_ERR_TIMEOUT: return grpc::StatusCode::DEADLINE_EXCEEDED;
    case ZKP_QUEUE_ERR_UNAVAILABLE: return grpc::StatusCode::UNAVAILABLE;
    case ZKP_QUEUE_ERR_REFUSED: return grpc::StatusCode::FAILED_PRECONDITION;
    default: return grpc::StatusCode::INTERNAL;
  }
}

Service::Service(host::Host& host, Auth auth, uint64_t key_budget_bytes, services::PathPolicy paths,
                 services::PathPolicy generators)
    : host_(host), auth_(std::move(auth)), keys_(host, key_budget_bytes), paths_(std::move(paths)),
      generators_(std::move(generators)),
      jobs_(host, metrics_, [this](uint64_t key_id) { keys_.job_done(key_id); }) {}

void Service::set_auth(Auth auth) {
  std::lock_guard lock(auth_mu_);
  auth_ = std::move(auth);
}

observe::Report Service::report() {
  observe::Report r = observe::host_report(host_, kVersion, started_);
  r.serving = accepting_;
  r.keys = keys_.list();
  r.key_counters = keys_.counters();
  r.metrics = metrics_.snapshot();
  r.jobs_open = jobs_.open();
  // serve's own: the gRPC calls Auth refused, every reason from the start.
  const std::map<std::string, uint64_t> refusals = Auth::refusals();
  observe::Exposition e;
  e.family("zkpipe_auth_refusals_total", observe::Exposition::Type::counter,
           "gRPC calls refused for authentication (UNAUTHENTICATED), by reason: no_token, not_bearer, wrong_token.");
  for (const auto& [reason, n] : refusals) e.sample("zkpipe_auth_refusals_total", {{"reason", reason}}, static_cast<double>(n));
  r.extra_metrics = e.text();
  r.extra_status.emplace_back("auth_refusals", observe::counts_json(refusals));
  return r;
}

grpc::Status Service::call(grpc::ServerContext* context, const char* method, bool starts_work,
                           const std::function<grpc::Status()>& body) {
  {
    std::lock_guard lock(auth_mu_);
    if (grpc::Status refused = auth_.check(*context, method); !refused.ok()) return refused;
  }
  if (starts_work && !accepting_) return failure(context, ZKP_ERR_CANCELLED, "zkpipe serve is shutting down",
                                                 grpc::StatusCode::UNAVAILABLE);
  try {
    return body();
  } catch (const sdk::Error& e) {
    host::log().debug("serve: {} failed: [{}] {}", method, zkp_status_name(e.status()), e.what());
    return failure(context, e.status(), e.what());
  } catch (const std::exception& e) {
    host::log().error("serve: {} failed: {}", method, e.what());
    return failure(context, ZKP_ERR_INTERNAL, e.what());
  }
}

std::string Service::admitted_path(const grpc::ServerContext& context, const std::string& path,
                                  const char* what) const {
  if (!paths_.restricted() && !context.peer().starts_with("unix:")) {
    // The unix socket's mode (0600) makes its callers the server's own user, who may read the
    // file anyway; a TCP caller holds a token, not the server's account.
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                     std::string("a ") + what + " from a TCP caller needs serve.key_dirs, the folders such callers may "
                                             "name files in; this server has none");
  }
  std::optional<std::string> admitted = paths_.admit(path);
  if (!admitted) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                     std::string(what) + " '" + path + "' is not inside " + paths_.describe());
  }
  return *admitted;
}

class Service::WaitingCall {
 public:
  explicit WaitingCall(Service& s) : s_(s) {
    const uint32_t now = s_.waiting_.fetch_add(1) + 1;
    if (s_.max_waiting_ != 0 && now > s_.max_waiting_) {
      s_.waiting_.fetch_sub(1);
      throw sdk::Error(ZKP_ERR_BUDGET_EXHAUSTED,
                       std::to_string(s_.max_waiting_) + " Prove and Await calls are open, serve.max_waiting_calls; "
                                                         "try again when one ends");
    }
  }
  ~WaitingCall() { s_.waiting_.fetch_sub(1); }
  WaitingCall(const WaitingCall&) = delete;
  WaitingCall& operator=(const WaitingCall&) = delete;

 private:
  Service& s_;
};

grpc::Status Service::LoadKey(grpc::ServerContext* context, const v1::LoadKeyRequest* request,
                              v1::LoadKeyResponse* response) {
  return call(context, "LoadKey", true, [&] {
    const zkp_key_format_t format =
        request->format() == v1::KEY_FORMAT_BELLPERSON ? ZKP_KEY_FORMAT_BELLPERSON : ZKP_KEY_FORMAT_ZKEY;
    std::string generator;
    if (!request->witness_generator().empty()) {
      // A generator is code this server would run: only from serve.generator_dirs, whoever asks.
      if (!generators_.restricted()) {
        throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "this server loads no witness generators (serve.generator_dirs is empty)");
      }
      std::optional<std::string> admitted = generators_.admit(request->witness_generator());
      if (!admitted) {
        throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "witness generator '" + request->witness_generator() +
                                                       "' is not inside serve.generator_dirs");
      }
      generator = *admitted;
    }
    const services::KeyTable::Loaded loaded =
        keys_.load(admitted_path(*context, request->path(), "key path"), format, generator);
    fill_key(loaded.key, response->mutable_key());
    response->set_already_loaded(loaded.already_loaded);
    return grpc::Status::OK;
  });
}

grpc::Status Service::UnloadKey(grpc::ServerContext* context, const v1::UnloadKeyRequest* request,
                                v1::UnloadKeyResponse*) {
  return call(context, "UnloadKey", false, [&] {
    try {
      keys_.unload(request->key_id());
    } catch (const sdk::Error& e) {
      if (e.status() != ZKP_ERR_INVALID_ARGUMENT) throw;
      return failure(context, e.status(), e.what(), grpc::StatusCode::FAILED_PRECONDITION);  // in use
    }
    return grpc::Status::OK;
  });
}

grpc::Status Service::ListKeys(grpc::ServerContext* context, const v1::ListKeysRequest*,
                               v1::ListKeysResponse* response) {
  return call(context, "ListKeys", false, [&] {
    for (const services::KeyEntry& k : keys_.list()) fill_key(k, response->add_keys());
    return grpc::Status::OK;
  });
}

std::shared_ptr<const JobState> Service::submit(v1::JobRequest& request, std::optional<JobTable::Reservation> reserved) {
  const uint64_t key_id = request.key_id();
  std::shared_ptr<const JobState> job;
  keys_.note_job(key_id);  // in use from now: never evicted under the job
  try {
    job = reserved ? jobs_.submit(request, std::move(*reserved)) : jobs_.submit(request);
  } catch (const sdk::Error& e) {
    keys_.job_done(key_id, false);
    if (e.status() != ZKP_ERR_NOT_FOUND || !keys_.evicted(key_id)) throw;
    throw sdk::Error(ZKP_ERR_NOT_FOUND, "key " + std::to_string(key_id) +
                                            " was evicted (idle, least recently used) to keep within serve.key_budget; "
                                            "LoadKey it again");
  }
  return job;
}

// The job keeps its witnesses. They are taken out of gRPC's request, not copied: a copy held a
// 60 MiB Submit twice (issue 36). The request object is gRPC's (not const itself), read by
// nobody after the handler.
grpc::Status Service::Submit(grpc::ServerContext* context, const v1::JobRequest* request,
                             v1::SubmitResponse* response) {
  return call(context, "Submit", true, [&] {
    response->set_job_id(submit(*const_cast<v1::JobRequest*>(request))->id());
    return grpc::Status::OK;
  });
}

grpc::Status Service::SubmitStream(grpc::ServerContext* context, grpc::ServerReader<v1::JobRequestPiece>* reader,
                                   v1::SubmitResponse* response) {
  return call(context, "SubmitStream", true, [&] {
    StreamedRequest streamed =
        receive_streamed(*reader, [this](uint64_t bytes) { return jobs_.reserve(bytes); });
    response->set_job_id(submit(streamed.request, std::move(streamed.reserved))->id());
    return grpc::Status::OK;
  });
}

grpc::Status Service::Prove(grpc::ServerContext* context, const v1::JobRequest* request,
                            v1::ProveResponse* response) {
  return call(context, "Prove", true, [&] {
    const WaitingCall waiting(*this);  // before the job: a refused Prove submits nothing
    const auto job = submit(*const_cast<v1::JobRequest*>(request));
    context->AddInitialMetadata("zkp-job-id", std::to_string(job->id()));
    response->set_job_id(job->id());
    std::vector<v1::PartitionResult> results;
    for (;;) {
      JobState::Batch batch = job->wait_from(results.size(), kPollInterval);
      for (auto& r : batch.results) results.push_back(std::move(r));
      if (batch.done) break;
      if (context->IsCancelled()) {  // the job goes on; its results stay in the job table
        return grpc::Status(grpc::StatusCode::CANCELLED, "the client went away; job " + std::to_string(job->id()) +
                                                             " was not cancelled");
      }
    }
    std::sort(results.begin(), results.end(),
              [](const v1::PartitionResult& a, const v1::PartitionResult& b) { return a.partition() < b.partition(); });
    for (const v1::PartitionResult& r : results) {
      if (r.status() == ZKP_ERR_CANCELLED && !accepting_) {
        // A retry elsewhere makes sense after a shutdown and not after a Cancel: say which.
        return failure(context, ZKP_ERR_CANCELLED,
                       "zkpipe serve is shutting down: job " + std::to_string(job->id()) +
                           " was cancelled with the rest of its queued work; send it again to a running server",
                       grpc::StatusCode::UNAVAILABLE);
      }
      if (r.status() != ZKP_OK) {
        return failure(context, static_cast<zkp_status_t>(r.status()),
                       "job " + std::to_string(job->id()) + " partition " + std::to_string(r.partition()) + ": " +
                           r.message());
      }
    }
    for (auto& r : results) *response->add_partitions() = std::move(r);
    return grpc::Status::OK;
  });
}

grpc::Status Service::Await(grpc::ServerContext* context, const v1::AwaitRequest* request,
                            grpc::ServerWriter<v1::PartitionResult>* writer) {
  return call(context, "Await", false, [&] {
    const WaitingCall waiting(*this);
    const auto job = jobs_.find(request->job_id());
    size_t sent = 0;
    for (;;) {
      const JobState::Batch batch = job->wait_from(sent, kPollInterval);
      for (const v1::PartitionResult& r : batch.results) {
        if (!writer->Write(r)) return grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
        ++sent;
      }
      if (batch.done) return grpc::Status::OK;
      if (context->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
    }
  });
}

grpc::Status Service::Cancel(grpc::ServerContext* context, const v1::CancelRequest* request, v1::CancelResponse*) {
  return call(context, "Cancel", false, [&] {
    jobs_.find(request->job_id());  // NOT_FOUND for a job of another server
    host_.cancel(request->job_id());
    return grpc::Status::OK;
  });
}

grpc::Status Service::Status(grpc::ServerContext* context, const v1::StatusRequest*, v1::StatusResponse* response) {
  return call(context, "Status", false, [&] {
    const zkp_host_stats_t s = host_.stats();
    response->set_prover(host_.prover_name());
    response->set_simulated(host_.simulated());
    response->set_pacer(host_.pacer_name());
    response->set_pacer_status(host_.pacer_status());
    for (uint32_t d = 0; d < s.device_count; ++d) {
      const zkp_device_info_t info = host_.device_info(d);
      v1::Device* out = response->add_devices();
      out->set_gpu_index(d);
      out->set_name(info.name);
      out->set_memory_bytes(info.memory_bytes);
      out->set_memory_free_bytes(info.memory_free_bytes);
      out->set_partitions_started(info.partitions_started);
      out->set_partitions_proved(info.partitions_proved);
      out->set_busy_ns(info.busy_ns);
    }
    response->set_queue_depth(s.waiting);
    v1::Stats* st = response->mutable_stats();
    st->set_jobs_submitted(s.jobs_submitted);
    st->set_jobs_finished(s.jobs_finished);
    st->set_partitions_succeeded(s.partitions_succeeded);
    st->set_partitions_failed(s.partitions_failed);
    st->set_pending(s.pending);
    st->set_synthesizing(s.synthesizing);
    st->set_waiting(s.waiting);
    st->set_proving(s.proving);
    st->set_budget_total_bytes(s.budget_total_bytes);
    st->set_budget_used_bytes(s.budget_used_bytes);
    st->set_budget_peak_bytes(s.budget_peak_bytes);
    st->set_device_count(s.device_count);
    st->set_workers_per_device(s.workers_per_device);
    st->set_admission_stalls(s.admission_stalls);
    st->set_admission_interval_ns(s.admission_interval_ns);
    st->set_device_restarts(s.device_restarts);
    st->set_devices_quarantined(s.devices_quarantined);
    response->set_keys_loaded(static_cast<uint32_t>(keys_.size()));
    response->set_jobs_open(static_cast<uint32_t>(jobs_.open()));
    response->set_uptime_ms(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_).count()));
    response->set_version(kVersion);
    return grpc::Status::OK;
  });
}

grpc::Status Service::no_queue(grpc::ServerContext* context) {
  return failure(context, ZKP_ERR_UNSUPPORTED,
                 "this zkpipe serve has no job store: set serve.queue_url (the PostgreSQL URL of a store made by "
                 "`zkpipe queue init`) to use Enqueue and JobStatus",
                 grpc::StatusCode::FAILED_PRECONDITION);
}

grpc::Status Service::Enqueue(grpc::ServerContext* context, const v1::EnqueueRequest* request,
                              v1::EnqueueResponse* response) {
  return call(context, "Enqueue", true, [&] {
    if (!queue_) return no_queue(context);
    // The workers open these paths; a caller may name only what it could LoadKey here.
    v1::EnqueueRequest admitted = *request;
    admitted.set_key_path(admitted_path(*context, request->key_path(), "key path"));
    for (std::string& p : *admitted.mutable_witness_paths()) p = admitted_path(*context, p, "witness path");
    const uint64_t id = queue_->enqueue(admitted);
    response->set_job_id(id);
    // "store id", not "job N": serve.log_format = json reads "job N" as one of this host's jobs.
    host::log().info("serve: enqueued {} partition(s) of {} into the job store (store id {})",
                     request->witnesses_size() + request->witness_paths_size(), request->key_path(), id);
    return grpc::Status::OK;
  });
}

grpc::Status Service::JobStatus(grpc::ServerContext* context, const v1::JobStatusRequest* request,
                                v1::JobStatusResponse* response) {
  return call(context, "JobStatus", false, [&] {
    if (!queue_) return no_queue(context);
    *response = queue_->status(*request);
    return grpc::Status::OK;
  });
}

grpc::Status Service::Health(grpc::ServerContext* context, const v1::HealthRequest*, v1::HealthResponse* response) {
  return call(context, "Health", false, [&] {
    response->set_serving(accepting_);
    response->set_version(kVersion);
    return grpc::Status::OK;
  });
}

}  // namespace zkp::serve
