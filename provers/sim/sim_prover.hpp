// The `sim` prover: a SIMULATED device for pacing and pipeline work. It proves
// nothing. It sleeps for a configured time per partition (longer when workers of one
// device overlap, as real GPUs do), reports that time as gpu_duration, and returns no
// proof bytes; every name and completion it produces says it is a simulation.
//
// Options: SimSettings, each one read and described by option_table().
//
// Each worker is one stream, as on a GPU: an op a worker starts while its previous op
// is still on the device (the host's worker_overlap) runs after it, not beside it, so
// overlap hides the epilogue without turning one worker into two.
//
// Failure hook for tests: a witness of kind ZKP_WITNESS_WTNS_BUFFER whose bytes are
// the text "unsatisfied" fails synthesis with ZKP_ERR_UNSATISFIED_WITNESS, as a real
// prover does for a witness that does not satisfy its circuit.
#pragma once

#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

namespace zkp::sim {

inline constexpr uint64_t kDefaultPartitionBytes = 1 << 20;  // 1 MiB: any budget holds many

struct SimSettings {
  uint32_t devices = 1;
  uint64_t gpu_ms = 1000;
  double contention = 1.2;
  uint64_t synthesis_ms = 0;
  uint64_t synthesis_jitter_ms = 0;
  uint64_t partition_bytes = kDefaultPartitionBytes;
  uint64_t seed = 1;
};

class SimProver final : public sdk::Prover {
 public:
  static constexpr const char* kName = "sim (simulated device: produces no proofs)";
  static const sdk::OptionTable<SimSettings>& option_table();

  SimProver(const sdk::HostServices& host, sdk::Options& options);
  explicit SimProver(const SimSettings& settings);

  uint32_t flags() const override { return ZKP_PROVER_FLAG_SIMULATED; }
  uint32_t device_count() const override { return static_cast<uint32_t>(devices_.size()); }
  void device_info(uint32_t gpu_index, zkp_device_info_t& out) const override;
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t& source, int32_t gpu_index) override;
  void key_info(const zkp_key_t& key, zkp_key_info_t& out) const override;
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t& key, const zkp_witness_t& witness) override;
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                              int32_t gpu_index, uint32_t worker) override;
  void prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) override;
  void prove_wait(zkp_prove_op_t& op);  // until the simulated device work ends

 private:
  struct Device {
    std::atomic<uint32_t> busy{0};  // ops inside prove_start..prove_finish
    std::atomic<uint64_t> started{0};
    std::atomic<uint64_t> proved{0};
    std::atomic<uint64_t> busy_ns{0};
    std::mutex streams_mu;
    std::map<uint32_t, std::chrono::steady_clock::time_point> stream_free;  // per worker: its last op's end
  };

  uint32_t pick_least_busy() const;
  std::chrono::nanoseconds synthesis_time();

  std::chrono::nanoseconds gpu_time_;
  double contention_;
  std::chrono::nanoseconds synthesis_time_;
  std::chrono::nanoseconds synthesis_jitter_;
  uint64_t partition_bytes_;
  std::unique_ptr<Device[]> device_storage_;
  std::vector<Device*> devices_;
  std::mutex rng_mutex_;
  std::mt19937_64 rng_;
};

}  // namespace zkp::sim
