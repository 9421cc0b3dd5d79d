// The zkpipe.v1.Prover service (proto/zkpipe/v1/prover.proto) over one host::Host. Every
// handler checks the caller (Auth), runs, and turns a zkp::sdk::Error into a gRPC status
// (status_mapping below) with the zkp_status_t in the "zkp-status" trailing metadata.
// Handlers run on gRPC's threads, many at once; the waits (Prove, Await) poll every
// kPollInterval so a client that goes away or a shutdown ends them.
#pragma once

#include "auth.hpp"
#include "job_table.hpp"
#include "services/key_table.hpp"
#include "services/path_policy.hpp"
#include "services/observe/metrics.hpp"
#include "queue_client.hpp"
#include "services/observe/report.hpp"

#include "zkpipe/v1/prover.grpc.pb.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>

namespace zkp::serve {

class Service final : public zkpipe::v1::Prover::Service {
 public:
  // key_budget_bytes: serve.key_budget (0: none); paths: serve.key_dirs; generators:
  // serve.generator_dirs (unrestricted, i.e. empty: no generator is loaded).
  Service(host::Host& host, Auth auth, uint64_t key_budget_bytes,
          services::PathPolicy paths = services::PathPolicy(),
          services::PathPolicy generators = services::PathPolicy());

  // The facts of /metrics and /status, now. [any-thread]
  observe::Report report();
  // Replaces the bearer token TCP calls must carry (SIGHUP). [any-thread]
  void set_auth(Auth auth);
  // How many Prove and Await calls may wait for their jobs at once (serve.max_waiting_calls);
  // before serving.
  void set_max_waiting_calls(uint32_t n) { max_waiting_ = n; }
  // serve.request_budget (JobTable::set_request_budget); before serving.
  void set_request_budget(uint64_t bytes) { jobs_.set_request_budget(bytes); }
  // The fleet's job store Enqueue and JobStatus use (serve.queue_url); before serving.
  void set_queue(std::unique_ptr<QueueClient> queue) { queue_ = std::move(queue); }

  // From now on, calls that would start work answer UNAVAILABLE; Health says serving=false.
  void stop_accepting() { accepting_ = false; }
  bool accepting() const { return accepting_; }

  grpc::Status LoadKey(grpc::ServerContext* context, const zkpipe::v1::LoadKeyRequest* request,
                       zkpipe::v1::LoadKeyResponse* response) override;
  grpc::Status UnloadKey(grpc::ServerContext* context, const zkpipe::v1::UnloadKeyRequest* request,
                         zkpipe::v1::UnloadKeyResponse* response) override;
  grpc::Status ListKeys(grpc::ServerContext* context, const zkpipe::v1::ListKeysRequest* request,
                        zkpipe::v1::ListKeysResponse* response) override;
  grpc::Status Prove(grpc::ServerContext* context, const zkpipe::v1::JobRequest* request,
                     zkpipe::v1::ProveResponse* response) override;
  grpc::Status Submit(grpc::ServerContext* context, const zkpipe::v1::JobRequest* request,
                      zkpipe::v1::SubmitResponse* response) override;
  grpc::Status Await(grpc::ServerContext* context, const zkpipe::v1::AwaitRequest* request,
                     grpc::ServerWriter<zkpipe::v1::PartitionResult>* writer) override;
  grpc::Status Cancel(grpc::ServerContext* context, const zkpipe::v1::CancelRequest* request,
                      zkpipe::v1::CancelResponse* response) override;
  grpc::Status Status(grpc::ServerContext* context, const zkpipe::v1::StatusRequest* request,
                      zkpipe::v1::StatusResponse* response) override;
  grpc::Status Health(grpc::ServerContext* context, const zkpipe::v1::HealthRequest* request,
                      zkpipe::v1::HealthResponse* response) override;
  grpc::Status Enqueue(grpc::ServerContext* context, const zkpipe::v1::EnqueueRequest* request,
                       zkpipe::v1::EnqueueResponse* response) override;
  grpc::Status JobStatus(grpc::ServerContext* context, const zkpipe::v1::JobStatusRequest* request,
                         zkpipe::v1::JobStatusResponse* response) override;
  grpc::Status SubmitStream(grpc::ServerContext* context, grpc::ServerReader<zkpipe::v1::JobRequestPiece>* reader,
                            zkpipe::v1::SubmitResponse* response) override;

 private:
  static constexpr std::chrono::milliseconds kPollInterval{100};

  // What Enqueue and JobStatus answer without serve.queue_url: FAILED_PRECONDITION.
  grpc::Status no_queue(grpc::ServerContext* context);
  // Auth, then `body`; exceptions become statuses. `starts_work`: refused once stopping.
  grpc::Status call(grpc::ServerContext* context, const char* method, bool starts_work,
                    const std::function<grpc::Status()>& body);
  // Submits `request` (its witnesses moved into the job), its bytes counted by `reserved` or,
  // without one, now.
  std::shared_ptr<const JobState> submit(zkpipe::v1::JobRequest& request,
                                         std::optional<JobTable::Reservation> reserved = std::nullopt);

  host::Host& host_;
  mutable std::mutex auth_mu_;
  Auth auth_;  // guarded by auth_mu_
  observe::Metrics metrics_;  // before jobs_: the jobs' callbacks count into it
  services::KeyTable keys_;
  const services::PathPolicy paths_;
  const services::PathPolicy generators_;  // serve.generator_dirs; unrestricted: none at all
  uint32_t max_waiting_ = 0;             // 0: no limit
  std::atomic<uint32_t> waiting_{0};     // Prove and Await calls open now
  // Holds one of max_waiting_ for the life of a Prove or Await call; throws sdk::Error
  // (ZKP_ERR_BUDGET_EXHAUSTED) when all are taken.
  class WaitingCall;
  // The file `path` names, when this caller may open it (paths_); else an sdk::Error that is the
  // same whatever is at a path outside the folders. `what`: "key path", "witness path".
  std::string admitted_path(const grpc::ServerContext& context, const std::string& path, const char* what) const;
  JobTable jobs_;
  std::unique_ptr<QueueClient> queue_;  // null without serve.queue_url
  std::atomic<bool> accepting_{true};
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// The gRPC code for a zkp_status_t.
grpc::StatusCode status_mapping(zkp_status_t status);

}  // namespace zkp::serve
