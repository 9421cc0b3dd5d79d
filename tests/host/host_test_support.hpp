// Helpers for tests that drive the host through its C API (libzkpipe).
#pragma once

#include <zkpipe/zkpipe.h>

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zkp::test {

// Where the test plugins (tests/host/plugins) are built.
inline std::string test_plugin_dir() { return ZKPIPE_TEST_PLUGIN_DIR; }

struct HostDeleter {
  void operator()(zkp_host_t* h) const { zkp_host_destroy(h, ZKP_SHUTDOWN_CANCEL); }
};
using HostPtr = std::unique_ptr<zkp_host_t, HostDeleter>;

inline zkp_error_t make_error() {
  zkp_error_t e{};
  e.header = ZKP_HEADER_INIT(zkp_error_t);
  return e;
}

// zkp_host_create with overrides; the plugin path always includes the test plugins.
struct Created {
  zkp_status_t status = ZKP_OK;
  std::string message;
  HostPtr host;
};

inline Created create_host(std::vector<std::string> overrides, const char* config_path = nullptr) {
  overrides.insert(overrides.begin(), "plugin_path=" + test_plugin_dir());
  overrides.insert(overrides.begin(), "log_level=warn");
  std::vector<const char*> c;
  for (const auto& o : overrides) c.push_back(o.c_str());
  zkp_error_t err = make_error();
  zkp_host_t* raw = nullptr;
  Created out;
  out.status = zkp_host_create(config_path, c.data(), c.size(), &raw, &err);
  out.message = err.message;
  out.host.reset(raw);
  return out;
}

inline HostPtr must_create(std::vector<std::string> overrides) {
  Created c = create_host(std::move(overrides));
  EXPECT_EQ(c.status, ZKP_OK) << c.message;
  return std::move(c.host);
}

inline uint64_t must_load_key(zkp_host_t* host) {
  zkp_key_source_t source{};
  source.header = ZKP_HEADER_INIT(zkp_key_source_t);
  zkp_error_t err = make_error();
  uint64_t key = 0;
  EXPECT_EQ(zkp_host_load_key(host, &source, &key, &err), ZKP_OK) << err.message;
  return key;
}

// A copy of one completion record (the host's pointers die with the callback).
struct Record {
  uint64_t job_id = 0;
  uint32_t partition = 0;
  zkp_status_t status = ZKP_OK;
  std::string message;
  int32_t gpu_index = -1;
  uint32_t worker = 0;
  uint64_t gpu_duration_ns = 0;
  uint64_t synthesis_ns = 0;
  uint64_t queue_wait_ns = 0;
  uint32_t flags = 0;
  std::vector<uint8_t> proof;
};

// Whether `proof` verifies against the multiplier sample's key, with its public input
// (public.json: 33 = 3 x 11, as 32 little-endian bytes).
inline bool multiplier_proof_verifies(zkp_host_t* host, uint64_t key, const std::vector<uint8_t>& proof) {
  std::vector<uint8_t> pub(ZKP_SCALAR_SIZE, 0);
  pub[0] = 33;
  zkp_error_t err = make_error();
  return zkp_host_verify(host, key, proof.data(), proof.size(), pub.data(), pub.size(), &err) == ZKP_OK;
}

// Checks that exactly one of `records` failed and that every other one proved, verifies
// (multiplier_proof_verifies) and carries `ok_flags`; returns the failed one for the test's
// own checks (a default Record if the count was wrong, the failure already reported).
inline Record only_failure(zkp_host_t* host, uint64_t key, const std::vector<Record>& records, uint32_t ok_flags = 0) {
  Record failure;
  size_t failed = 0;
  for (const Record& r : records) {
    if (r.status == ZKP_OK) {
      EXPECT_TRUE(multiplier_proof_verifies(host, key, r.proof)) << "job " << r.job_id << " partition " << r.partition;
      EXPECT_EQ(r.flags & ok_flags, ok_flags) << "job " << r.job_id << " partition " << r.partition;
      continue;
    }
    ++failed;
    failure = r;
  }
  EXPECT_EQ(failed, 1u);
  return failed == 1 ? failure : Record{};
}

// Collects every callback of the jobs it is attached to. Callbacks run on the host's
// completion thread; the test reads after zkp_host_wait (or under the mutex).
struct Collector {
  std::mutex mu;
  std::vector<Record> records;
  std::vector<zkp_job_summary_t> jobs;

  static void on_partition(void* self, const zkp_completion_t* c) {
    auto& me = *static_cast<Collector*>(self);
    Record r;
    r.job_id = c->job_id;
    r.partition = c->partition;
    r.status = c->status;
    r.message = c->message != nullptr ? c->message : "(null)";
    r.gpu_index = c->gpu_index;
    r.worker = c->worker;
    r.gpu_duration_ns = c->gpu_duration_ns;
    r.synthesis_ns = c->synthesis_ns;
    r.queue_wait_ns = c->queue_wait_ns;
    r.flags = c->flags;
    if (c->proof != nullptr) r.proof.assign(c->proof, c->proof + c->proof_size);
    std::lock_guard lock(me.mu);
    me.records.push_back(std::move(r));
  }
  static void on_job(void* self, const zkp_job_summary_t* s) {
    auto& me = *static_cast<Collector*>(self);
    std::lock_guard lock(me.mu);
    me.jobs.push_back(*s);
  }
};

// Partitions without a witness (enough for the sim prover), or with a text witness
// (the provers' failure hooks: "unsatisfied", "bad-proof", "fail-prove").
struct Partitions {
  std::vector<zkp_partition_t> list;
  std::vector<std::string> texts;  // kept alive while the job runs

  Partitions(const Partitions&) = delete;  // the witnesses point into `texts`
  Partitions& operator=(const Partitions&) = delete;

  explicit Partitions(uint32_t n, const std::map<uint32_t, std::string>& text_witness = {}) : list(n) {
    texts.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      zkp_partition_t& p = list[i];
      p = zkp_partition_t{};
      p.header = ZKP_HEADER_INIT(zkp_partition_t);
      p.witness.header = ZKP_HEADER_INIT(zkp_witness_t);
      p.witness.kind = ZKP_WITNESS_NONE;
      auto it = text_witness.find(i);
      texts.push_back(it == text_witness.end() ? std::string() : it->second);
    }
    for (uint32_t i = 0; i < n; ++i) {
      if (texts[i].empty()) continue;
      list[i].witness.kind = ZKP_WITNESS_WTNS_BUFFER;
      list[i].witness.data = texts[i].data();
      list[i].witness.size = texts[i].size();
    }
  }
};

inline zkp_job_t make_job(uint64_t key, const Partitions& parts, Collector* collector, int32_t gpu_index = -1,
                          int32_t priority = 0) {
  zkp_job_t job{};
  job.header = ZKP_HEADER_INIT(zkp_job_t);
  job.key_id = key;
  job.partitions = parts.list.data();
  job.partition_count = static_cast<uint32_t>(parts.list.size());
  job.gpu_index = gpu_index;
  job.priority = priority;
  job.on_partition = &Collector::on_partition;
  job.on_job = &Collector::on_job;
  job.user_data = collector;
  return job;
}

inline uint64_t must_submit(zkp_host_t* host, const zkp_job_t& job) {
  zkp_error_t err = make_error();
  uint64_t id = 0;
  EXPECT_EQ(zkp_host_submit(host, &job, &id, &err), ZKP_OK) << err.message;
  EXPECT_NE(id, 0u);
  return id;
}

inline void must_wait(zkp_host_t* host, uint64_t job_id = 0) {
  zkp_error_t err = make_error();
  constexpr int64_t kTestTimeoutMs = 30'000;  // a hang fails the test instead of CI
  ASSERT_EQ(zkp_host_wait(host, job_id, kTestTimeoutMs, &err), ZKP_OK) << err.message;
}

inline zkp_host_stats_t stats(zkp_host_t* host) {
  zkp_host_stats_t s{};
  s.header = ZKP_HEADER_INIT(zkp_host_stats_t);
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_stats(host, &s, &err), ZKP_OK) << err.message;
  return s;
}

// An older caller's zkp_host_stats: its struct ends at `end` (an offsetof), and every byte of the
// struct from there on holds kStatsSentinel before the call, as it must after it.
constexpr uint8_t kStatsSentinel = 0xA5;
inline zkp_host_stats_t stats_ending_at(zkp_host_t* host, size_t end) {
  zkp_host_stats_t s;
  std::memset(&s, kStatsSentinel, sizeof s);
  s.header = ZKP_HEADER_INIT(zkp_host_stats_t);
  s.header.struct_size = static_cast<uint32_t>(end);
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_stats(host, &s, &err), ZKP_OK) << err.message;
  const auto* bytes = reinterpret_cast<const uint8_t*>(&s);
  for (size_t i = end; i < sizeof s; ++i) EXPECT_EQ(bytes[i], kStatsSentinel) << "byte " << i << " written";
  return s;
}

inline zkp_device_info_t device_info(zkp_host_t* host, uint32_t gpu) {
  zkp_device_info_t d{};
  d.header = ZKP_HEADER_INIT(zkp_device_info_t);
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_device_info(host, gpu, &d, &err), ZKP_OK) << err.message;
  return d;
}

inline std::string pacer_status(zkp_host_t* host) {
  char buf[512];
  size_t needed = 0;
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_pacer_status(host, buf, sizeof buf, &needed, &err), ZKP_OK) << err.message;
  return buf;
}

// The value of "name=N" in a recorder pacer status line, or -1.
inline long long status_field(const std::string& line, const std::string& name) {
  const std::string needle = " " + name + "=";
  const size_t at = line.find(needle);
  if (at == std::string::npos) return -1;
  return std::stoll(line.substr(at + needle.size()));
}

}  // namespace zkp::test
