// The fleet's job store (docs/FLEET.md) as `zkpipe serve` reaches it for Enqueue and
// JobStatus: one connection through libzkpipe_queue's C API (zkp_queue.h), opened at start
// from serve.queue_url. Calls take turns on the connection, as the C API says they must;
// a store that restarted is reconnected by the C API on the next call.
#pragma once

#include "zkpipe/v1/prover.pb.h"

#include <memory>
#include <mutex>
#include <string>

namespace zkp::serve {

class QueueClient {
 public:
  // Connects and checks the store's schema. Throws zkp::sdk::Error with the C API's status
  // and message (ZKP_ERR_UNSUPPORTED when this zkpipe was built without libpq).
  explicit QueueClient(const std::string& url);
  ~QueueClient();
  QueueClient(const QueueClient&) = delete;
  QueueClient& operator=(const QueueClient&) = delete;

  // zkp_queue_enqueue of the request's job; its job id. Throws zkp::sdk::Error:
  // ZKP_ERR_INVALID_ARGUMENT for a request without partitions or with an unknown curve,
  // else as zkp_queue_enqueue fails.
  uint64_t enqueue(const zkpipe::v1::EnqueueRequest& request);
  // zkp_queue_job_status (and zkp_queue_result of every partition when request.results()).
  zkpipe::v1::JobStatusResponse status(const zkpipe::v1::JobStatusRequest& request);

 private:
  struct Handle;
  std::mutex mu_;
  std::unique_ptr<Handle> handle_;
};

}  // namespace zkp::serve
