#include "serve_runner.hpp"

#include "bench/busy_sampler.hpp"

#include "call_status.hpp"  // host/client
#include "connection.hpp"  // host/client

#include <zkpipe/host/clock.hpp>
#include <zkpipe/sdk/error.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace zkp::cli::bench {

namespace {

namespace v1 = zkpipe::v1;

constexpr double kNsPerS = 1e9;
constexpr uint32_t kSelfChecked = 2;  // ZKP_COMPLETION_SELF_CHECKED (zkp_host.h), as serve sends it
// How often the main thread redraws the progress while the client threads prove.
constexpr auto kTickEvery = std::chrono::milliseconds(50);

v1::StatusResponse server_status(client::Connection& c) {
  v1::StatusResponse out;
  const auto context = c.context();
  client::check("Status", *context, c.stub().Status(context.get(), v1::StatusRequest(), &out));
  return out;
}

std::vector<uint64_t> device_busy_ns(const v1::StatusResponse& status) {
  std::vector<uint64_t> busy;
  for (const v1::Device& d : status.devices()) busy.push_back(d.busy_ns());
  return busy;
}

uint64_t busy_ns(const v1::StatusResponse& status) {
  uint64_t sum = 0;
  for (const v1::Device& d : status.devices()) sum += d.busy_ns();
  return sum;
}

// What the client threads saw.
struct Tally {
  std::mutex mutex;
  std::vector<uint64_t> latency_ns;
  uint64_t failed = 0;
  uint64_t verified = 0;
  std::string first_failure;
  uint64_t last_reply_ns = 0;
};

}  // namespace

ServeRunner::ServeRunner(client::Connection& connection, const std::string& key_path, const std::string& witness_path,
                         std::chrono::steady_clock::time_point origin)
    : connection_(connection), origin_(origin) {
  std::ifstream w(witness_path, std::ios::binary);
  if (!w) throw sdk::Error(ZKP_ERR_NOT_FOUND, "--witness: cannot read " + witness_path);
  std::ostringstream bytes;
  bytes << w.rdbuf();
  witness_ = bytes.str();
  v1::LoadKeyRequest request;
  request.set_path(std::filesystem::absolute(key_path).string());
  request.set_format(v1::KEY_FORMAT_ZKEY);
  v1::LoadKeyResponse response;
  const auto context = connection_.context();
  client::check("LoadKey", *context, connection_.stub().LoadKey(context.get(), request, &response));
  key_id_ = response.key().key_id();
  prover_name_ = server_status(connection_).prover();
}

PointResult ServeRunner::run(const Point& point, const Budget& budget, const ProofTick& tick) {
  v1::JobRequest request;
  request.set_key_id(key_id_);
  request.set_gpu_index(-1);
  request.add_witnesses(witness_);

  Tally tally;
  // One Prove call; `record` false for warm-up.
  auto prove_one = [&](bool record) {
    v1::ProveResponse response;
    const uint64_t t0 = host::now_ns();
    const grpc::Status s = connection_.stub().Prove(connection_.context().get(), request, &response);
    const uint64_t t1 = host::now_ns();
    if (!record) return;
    const std::lock_guard lock(tally.mutex);
    tally.last_reply_ns = t1;
    const bool ok = s.ok() && response.partitions_size() == 1 && response.partitions(0).status() == 0;
    if (!ok) {
      if (tally.failed++ == 0) {
        tally.first_failure = !s.ok() ? "Prove: [" + std::to_string(static_cast<int>(s.error_code())) + "] " + s.error_message()
                              : response.partitions_size() == 1
                                  ? "[" + response.partitions(0).status_name() + "] " + response.partitions(0).message()
                                  : "Prove: " + std::to_string(response.partitions_size()) + " results for 1 partition";
      }
      return;
    }
    tally.latency_ns.push_back(t1 - t0);
    if ((response.partitions(0).flags() & kSelfChecked) != 0) ++tally.verified;
  };
  for (uint32_t i = 0; i < budget.warmup; ++i) prove_one(false);

  const v1::StatusResponse before = server_status(connection_);
  PointResult result;
  result.point = point;
  result.point.workers_per_device = before.stats().workers_per_device();
  result.point.synthesis_threads = 0;
  result.warmup = budget.warmup;
  result.devices = static_cast<uint32_t>(before.devices_size());

  const uint64_t start = host::now_ns();
  const auto deadline = start + static_cast<uint64_t>(budget.duration_s * kNsPerS);
  std::atomic<uint64_t> claimed{0}, done{0};
  auto claim = [&] {
    if (budget.proofs > 0) return claimed.fetch_add(1) < budget.proofs;
    return host::now_ns() < deadline;
  };
  BusySampler sampler([this] { return device_busy_ns(server_status(connection_)); }, origin_);
  std::vector<std::thread> clients;
  for (uint32_t t = 0; t < point.in_flight; ++t) {
    clients.emplace_back([&] {
      while (claim()) {
        prove_one(true);
        done.fetch_add(1);
      }
    });
  }
  std::atomic<bool> finished{false};
  std::thread joiner([&] {
    for (std::thread& c : clients) c.join();
    finished.store(true);
  });
  while (!finished.load()) {
    std::this_thread::sleep_for(kTickEvery);
    tick(done.load());
  }
  joiner.join();
  result.busy_samples = sampler.stop();
  result.busy_ns = busy_ns(server_status(connection_)) - busy_ns(before);

  const std::lock_guard lock(tally.mutex);
  result.wall_ns = tally.last_reply_ns > start ? tally.last_reply_ns - start : 0;
  result.latency_ns = std::move(tally.latency_ns);
  result.failed = tally.failed;
  result.verified = tally.verified;
  result.first_failure = std::move(tally.first_failure);
  return result;
}

}  // namespace zkp::cli::bench
