// What the isolation = process tests share (isolation_test.cpp, isolation_synthesis_test.cpp):
// a host whose `faulty` prover wraps the cpu prover as two devices, the multiplier_bn128 key,
// its witness as a file or a buffer, and the proving and checking of jobs through the C API.
#pragma once

#include "host_test_support.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace zkp::test::isolation {

namespace fs = std::filesystem;

inline const fs::path kCircuit = fs::path(ZKPIPE_SOURCE_DIR) / "samples/circuits/multiplier_bn128";
inline const std::string kLibDir = ZKPIPE_BUILD_LIB_DIR;

// A fault_once file of its own for each test, absent before it and removed after.
struct FaultOnce {
  fs::path path = fs::path(::testing::TempDir()) /
                  ("zkpipe-isolation-" + std::to_string(::getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  FaultOnce() { fs::remove(path); }
  ~FaultOnce() { fs::remove(path); }
};

inline HostPtr isolated_host(std::vector<std::string> more, const std::string& mode = "process") {
  std::vector<std::string> o{"prover=faulty",     "prover.inner=" + kLibDir + "/libzkp_prover_cpu.so",
                             "prover.devices=2",  "workers_per_device=1",
                             "synthesis_threads=2", "isolation=" + mode};
  o.insert(o.end(), more.begin(), more.end());
  return must_create(o);
}

inline uint64_t load_key(zkp_host_t* host, const std::vector<uint8_t>* bytes = nullptr) {
  const std::string path = (kCircuit / "circuit.zkey").string();
  zkp_key_source_t source{};
  source.header = ZKP_HEADER_INIT(zkp_key_source_t);
  if (bytes != nullptr) {
    source.data = bytes->data();
    source.size = bytes->size();
  } else {
    source.path = path.c_str();
  }
  zkp_error_t err = make_error();
  uint64_t key = 0;
  EXPECT_EQ(zkp_host_load_key(host, &source, &key, &err), ZKP_OK) << err.message;
  return key;
}

inline std::vector<uint8_t> file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `n` partitions of the multiplier's witness: its file, or its bytes in a buffer.
struct Witnesses {
  std::string path = (kCircuit / "witness.wtns").string();
  std::vector<uint8_t> bytes;
  std::vector<zkp_partition_t> list;
  Witnesses(uint32_t n, bool buffer, const std::vector<uint8_t>* given = nullptr)
      : bytes(given != nullptr ? *given : file_bytes(path)), list(n) {
    for (zkp_partition_t& p : list) {
      p = zkp_partition_t{};
      p.header = ZKP_HEADER_INIT(zkp_partition_t);
      p.witness.header = ZKP_HEADER_INIT(zkp_witness_t);
      p.witness.kind = buffer ? ZKP_WITNESS_WTNS_BUFFER : ZKP_WITNESS_WTNS_FILE;
      p.witness.path = buffer ? nullptr : path.c_str();
      p.witness.data = buffer ? bytes.data() : nullptr;
      p.witness.size = buffer ? bytes.size() : 0;
    }
  }
  Witnesses(const Witnesses&) = delete;
  Witnesses& operator=(const Witnesses&) = delete;
};

// Proves `jobs` jobs of `per_job` partitions (pinned to `gpu`, or -1) and returns every record;
// with `wtns`, each partition's witness is that .wtns buffer.
inline std::vector<Record> prove(zkp_host_t* host, uint64_t key, uint32_t jobs, uint32_t per_job, int32_t gpu = -1,
                          bool buffer = false, const std::vector<uint8_t>* randomness = nullptr,
                          const std::vector<uint8_t>* wtns = nullptr) {
  Collector collector;
  std::vector<std::unique_ptr<Witnesses>> parts;
  for (uint32_t j = 0; j < jobs; ++j) {
    parts.push_back(std::make_unique<Witnesses>(per_job, buffer || wtns != nullptr, wtns));
    Partitions none(0);
    zkp_job_t job = make_job(key, none, &collector, gpu);
    job.partitions = parts.back()->list.data();
    job.partition_count = per_job;
    job.randomness = randomness != nullptr ? randomness->data() : nullptr;
    must_submit(host, job);
  }
  must_wait(host);
  std::lock_guard lock(collector.mu);
  EXPECT_EQ(collector.jobs.size(), jobs);
  return collector.records;
}

// Every record proved and verifying; returns how many ran on `device`.
inline size_t expect_all_proved(zkp_host_t* host, uint64_t key, const std::vector<Record>& records, int32_t device) {
  size_t on = 0;
  for (const Record& r : records) {
    EXPECT_EQ(r.status, ZKP_OK) << "job " << r.job_id << " partition " << r.partition << ": " << r.message;
    EXPECT_TRUE(multiplier_proof_verifies(host, key, r.proof)) << "job " << r.job_id << " partition " << r.partition;
    if (r.gpu_index == device) ++on;
  }
  return on;
}

}  // namespace zkp::test::isolation
