// `zkpipe worker --http HOST:PORT`: the worker's read-only HTTP endpoint, the services'
// (services/observe) that serve.http is made of, so the two front ends answer alike:
//   /metrics  Prometheus text: the host's families under serve's names (zkpipe_partitions_total,
//             zkpipe_queue_depth, zkpipe_device_*, zkpipe_gpu_duration_seconds, zkpipe_key_*, ...)
//             and the worker's own, zkpipe_worker_* (claims, results written and dropped, leases
//             released, lost and requeued, reconnects, the database connection's state).
//   /status   the same facts as JSON (serve's /status, with a "worker" object).
//   /healthz  200 "ok" while the worker claims work with its database connected; 503 with the
//             reason while it reconnects to the database or is stopping.
// Plain HTTP without authentication: loopback hosts only (services::is_loopback_address),
// checked by the flag. One thread (observe::HttpServer).
#pragma once

#include "queue_worker.hpp"

#include "services/observe/http_server.hpp"
#include "services/observe/metrics.hpp"
#include "services/observe/report.hpp"

#include <zkpipe/host/host.hpp>

#include <chrono>
#include <string>

namespace zkp::queue {

// The zkpipe_worker_* families of `status`, as Prometheus text.
std::string worker_metrics_text(const std::string& id, const WorkerStatus& status);

class WorkerEndpoint {
 public:
  // Binds `address` (a loopback HOST:PORT; port 0: any free port) and starts answering. `metrics`
  // must be fed every completion (WorkerOptions::on_completion). Throws zkp::sdk::Error
  // (ZKP_ERR_INVALID_ARGUMENT) when the address cannot be bound.
  WorkerEndpoint(const std::string& address, std::string id, host::Host& host, const QueueWorker& worker,
                 const observe::Metrics& metrics);

  const std::string& address() const { return http_.address(); }

 private:
  observe::Report report() const;
  observe::HttpResponse page(const observe::HttpRequest& request) const;

  const std::string id_;
  host::Host& host_;
  const QueueWorker& worker_;
  const observe::Metrics& metrics_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  observe::HttpServer http_;  // last: its thread calls page(), which reads the members above
};

}  // namespace zkp::queue
