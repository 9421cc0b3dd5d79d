// The `hosttest` prover: a fake backend for the host's tests. Unlike `sim`, it returns
// proof bytes and can verify them, so the randomness hand-off, the self-check and the
// device check are testable. Nothing here is cryptography.
//
// A proof is 256 bytes: r || s as the host passed them (zeros if none), the device
// index, then a marker that verify() looks for. Failure hooks, chosen per partition by
// a witness of kind ZKP_WITNESS_WTNS_BUFFER whose text starts with one of these:
//   "bad-proof"   the proof is produced without its marker: verify() says invalid
//   "fail-prove"  prove_finish fails with ZKP_ERR_DEVICE
//   "fail-start"  prove_start fails with ZKP_ERR_DEVICE
// The whole text is the partition's label in the trace (below); "-" without a witness.
//
// trace=PATH appends one line per call, in call order, for the tests to read back:
//   "facts W S O"           at creation: the facts the prover was made with (workers per
//                            device, synthesis threads, ops per worker; 1 1 1 when the
//                            host called plain create)
//   "start LABEL D W"       prove_start on device D for worker W; "start-failed LABEL"
//                            follows when the hook fails it
//   "final LABEL"           just before it, when the host handed the synthesis over
//                            (ZKP_PROVE_INPUT_FINAL)
//   "finish LABEL D W"      prove_finish entered (before it waits for the device)
//   "verify"                verify called
// verified=true reports every proof it returns as checked (ZKP_PROVE_OUTPUT_VERIFIED).
// Built twice: libzkp_prover_hosttest_v1.so has the factory table of the first release
// (no create_with_facts), to test the host's fallback to create.
// Options: devices, gpu_ms, partition_bytes, simulated (flag the prover as simulated),
// misreport_device (report device+1 in prove_finish), refuse_synthesis (synthesize
// always fails: only caller-synthesized partitions can succeed), lost_device (every
// proof on that device fails with ZKP_ERR_DEVICE after lost_after proofs there
// succeeded: a GPU that falls off the bus), oom_device (every proof there fails with
// ZKP_ERR_OUT_OF_MEMORY).
#include <zkpipe/sdk/plugin.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using namespace zkp;
using Clock = std::chrono::steady_clock;

constexpr size_t kProofSize = ZKP_PROOF_SIZE_BN254;
constexpr size_t kRandomness = 2 * ZKP_SCALAR_SIZE;
constexpr size_t kDeviceByte = kRandomness;
constexpr std::string_view kMarker = "hosttest-proof";
constexpr uint64_t kNoDevice = 64;  // devices are 0..63: the default of lost_device and oom_device

enum class Mode { normal, bad_proof, fail_prove, fail_start };

struct TestKey final : zkp_key_t {};
struct TestSynthesis final : zkp_synthesis_t {
  Mode mode = Mode::normal;
  std::string label = "-";
};
struct TestOp final : zkp_prove_op_t {
  Mode mode = Mode::normal;
  std::string label = "-";
  uint32_t device = 0;
  uint32_t worker = 0;
  std::array<uint8_t, kRandomness> randomness{};
  Clock::time_point start;
};

class TestProver final : public sdk::Prover {
 public:
  static constexpr const char* kName = "hosttest";
  static constexpr const char* kOptionsHelp =
      "devices=1            number of fake devices\n"
      "gpu_ms=0             time one proof takes (ms)\n"
      "partition_bytes=1048576  synthesis_bytes of the key\n"
      "simulated=false      flag the prover as a simulation\n"
      "misreport_device=false   report device+1 as the device a proof ran on\n"
      "refuse_synthesis=false   synthesize always fails\n"
      "lost_device=64       proofs on this device fail with ZKP_ERR_DEVICE (after lost_after succeed)\n"
      "lost_after=0         proofs that succeed on lost_device before it is lost\n"
      "oom_device=64        proofs on this device fail with ZKP_ERR_OUT_OF_MEMORY\n"
      "trace=               append one line per call to this file (see test_prover.cpp)\n"
      "verified=false       report every proof as verified by the prover (ZKP_PROVE_OUTPUT_VERIFIED)\n";

  TestProver(const sdk::HostServices&, const sdk::ProverFacts& facts, sdk::Options& o)
      : devices_(o.get_u64("devices", 1, 1, 64)),
        gpu_time_(std::chrono::milliseconds(o.get_u64("gpu_ms", 0, 0, 60'000))),
        partition_bytes_(o.get_u64("partition_bytes", 1 << 20, 1)),
        simulated_(o.get_bool("simulated", false)),
        misreport_(o.get_bool("misreport_device", false)),
        refuse_synthesis_(o.get_bool("refuse_synthesis", false)),
        lost_device_(o.get_u64("lost_device", kNoDevice, 0, kNoDevice)),
        lost_after_(o.get_u64("lost_after", 0, 0, 1'000'000)),
        oom_device_(o.get_u64("oom_device", kNoDevice, 0, kNoDevice)),
        verified_(o.get_bool("verified", false)),
        started_(devices_),
        proved_(devices_) {
    const std::string path = o.get_string("trace", "");
    if (!path.empty()) trace_.open(path, std::ios::app);
    if (!path.empty() && !trace_) throw sdk::Error(ZKP_ERR_NOT_FOUND, "hosttest: cannot open trace file " + path);
    trace("facts " + std::to_string(facts.workers_per_device) + " " + std::to_string(facts.synthesis_threads) + " " +
          std::to_string(facts.ops_per_worker));
  }

  uint32_t flags() const override {
    return ZKP_PROVER_FLAG_VERIFY | (simulated_ ? ZKP_PROVER_FLAG_SIMULATED : 0u);
  }
  uint32_t device_count() const override { return static_cast<uint32_t>(devices_); }
  void device_info(uint32_t gpu_index, zkp_device_info_t& out) const override {
    sdk::copy_name(out.name, "hosttest device " + std::to_string(gpu_index));
    out.partitions_started = started_[gpu_index].load();
    out.partitions_proved = proved_[gpu_index].load();
  }
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t&, int32_t) override {
    return std::make_unique<TestKey>();
  }
  void key_info(const zkp_key_t&, zkp_key_info_t& out) const override {
    out.curve = ZKP_CURVE_BN254;
    out.n_vars = 2;
    out.n_public = 1;
    out.domain_size = 4;
    out.synthesis_bytes = partition_bytes_;
    out.proof_size = kProofSize;
    out.public_size = ZKP_SCALAR_SIZE;
  }
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t&, const zkp_witness_t& w) override {
    if (refuse_synthesis_) throw sdk::Error(ZKP_ERR_UNSUPPORTED, "hosttest: synthesis refused (refuse_synthesis=true)");
    auto s = std::make_unique<TestSynthesis>();
    if (w.kind == ZKP_WITNESS_WTNS_BUFFER && w.data != nullptr) {
      const std::string_view text(static_cast<const char*>(w.data), w.size);
      if (text.starts_with("bad-proof")) s->mode = Mode::bad_proof;
      if (text.starts_with("fail-prove")) s->mode = Mode::fail_prove;
      if (text.starts_with("fail-start")) s->mode = Mode::fail_start;
      s->label = std::string(text);
    }
    return s;
  }
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t&, const zkp_prove_input_t& in, int32_t gpu_index,
                                              uint32_t worker) override {
    auto op = std::make_unique<TestOp>();
    op->device = gpu_index < 0 ? 0u : static_cast<uint32_t>(gpu_index);
    op->worker = worker;
    if (in.synthesis != nullptr) {
      const auto& s = static_cast<const TestSynthesis&>(*in.synthesis);
      op->mode = s.mode;
      op->label = s.label;
    }
    if ((sdk::prove_input_flags(in) & ZKP_PROVE_INPUT_FINAL) != 0) trace("final " + op->label);
    trace("start " + op->label + " " + std::to_string(op->device) + " " + std::to_string(worker));
    if (op->mode == Mode::fail_start) {
      trace("start-failed " + op->label);
      throw sdk::Error(ZKP_ERR_DEVICE, "hosttest: injected start fault");
    }
    if (in.randomness != nullptr) std::memcpy(op->randomness.data(), in.randomness, kRandomness);
    op->start = Clock::now();
    started_[op->device].fetch_add(1);
    return op;
  }
  void prove_finish(std::unique_ptr<zkp_prove_op_t> base, zkp_prove_output_t& out) override {
    auto& op = static_cast<TestOp&>(*base);
    trace("finish " + op.label + " " + std::to_string(op.device) + " " + std::to_string(op.worker));
    std::this_thread::sleep_until(op.start + gpu_time_);
    if (op.mode == Mode::fail_prove) throw sdk::Error(ZKP_ERR_DEVICE, "hosttest: injected device fault");
    const uint64_t device = op.device;
    if (device == lost_device_ && proved_[op.device].load() >= lost_after_) {
      throw sdk::Error(ZKP_ERR_DEVICE, "hosttest: device " + std::to_string(device) + " is lost");
    }
    if (device == oom_device_) {
      throw sdk::Error(ZKP_ERR_OUT_OF_MEMORY, "hosttest: device " + std::to_string(device) + " is out of memory");
    }
    if (out.proof_capacity < kProofSize || out.public_capacity < ZKP_SCALAR_SIZE) {
      out.proof_size = kProofSize;
      out.public_size = ZKP_SCALAR_SIZE;
      throw sdk::Error(ZKP_ERR_SHORT_BUFFER, "hosttest: buffers too small");
    }
    std::memset(out.proof, 0, kProofSize);
    std::memcpy(out.proof, op.randomness.data(), kRandomness);
    out.proof[kDeviceByte] = static_cast<uint8_t>(op.device);
    if (op.mode != Mode::bad_proof) std::memcpy(out.proof + kDeviceByte + 1, kMarker.data(), kMarker.size());
    std::memset(out.public_inputs, 0, ZKP_SCALAR_SIZE);
    out.public_inputs[0] = 1;
    out.proof_size = kProofSize;
    out.public_size = ZKP_SCALAR_SIZE;
    out.gpu_index = static_cast<int32_t>(op.device + (misreport_ ? 1 : 0));
    out.gpu_duration_ns = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - op.start).count());
    if (verified_) sdk::set_output_flags(out, ZKP_PROVE_OUTPUT_VERIFIED);
    proved_[op.device].fetch_add(1);
  }
  bool verify(const zkp_key_t&, std::span<const uint8_t> proof, std::span<const uint8_t>) const override {
    trace("verify");
    return proof.size() == kProofSize &&
           std::memcmp(proof.data() + kDeviceByte + 1, kMarker.data(), kMarker.size()) == 0;
  }

 private:
  void trace(const std::string& line) const {
    std::lock_guard lock(trace_mu_);
    if (trace_.is_open()) trace_ << line << std::endl;  // flushed: the test reads it while we run
  }

  size_t devices_;
  std::chrono::nanoseconds gpu_time_;
  uint64_t partition_bytes_;
  bool simulated_;
  bool misreport_;
  bool refuse_synthesis_;
  uint64_t lost_device_;  // kNoDevice: none
  uint64_t lost_after_;
  uint64_t oom_device_;
  bool verified_;
  mutable std::mutex trace_mu_;
  mutable std::ofstream trace_;
  std::vector<std::atomic<uint64_t>> started_;
  std::vector<std::atomic<uint64_t>> proved_;
};

#ifdef ZKP_HOSTTEST_FIRST_RELEASE_TABLE
// The factory table as the first release of the ABI laid it out, ending at create. Where
// a newer table has create_with_facts sits a trap instead: a host that reads past
// struct_size calls it and fails with its message.
struct FirstReleaseTable {
  zkp_struct_header_t header;
  const char* options_help;
  decltype(zkp_prover_factory_t::create) create;
  decltype(zkp_prover_factory_t::create_with_facts) trap;
};
static_assert(offsetof(FirstReleaseTable, trap) == offsetof(zkp_prover_factory_t, create_with_facts));

zkp_status_t trap(const zkp_host_services_t*, const zkp_prover_facts_t*, const zkp_option_t*, size_t,
                  zkp_prover_t**, zkp_error_t* err) {
  sdk::set_error(err, ZKP_ERR_INTERNAL, "hosttest_v1: the host called create_with_facts past struct_size");
  return ZKP_ERR_INTERNAL;
}

struct FirstReleaseFactory {
  static constexpr const char* id = ZKP_PROVER_FACTORY_ID;
  static inline const FirstReleaseTable table = {
      {static_cast<uint32_t>(offsetof(FirstReleaseTable, trap)), 1u}, TestProver::kOptionsHelp,
      &sdk::ProverFactory<TestProver>::create, &trap};
};
#endif

}  // namespace

#ifdef ZKP_HOSTTEST_FIRST_RELEASE_TABLE
ZKP_PLUGIN("hosttest_v1", "1.0.0", "fake prover for the host tests, with the first release's factory table",
           FirstReleaseFactory);
#else
ZKP_PLUGIN("hosttest", "1.0.0", "fake prover for the host tests (proof bytes, verify, failure hooks)",
           zkp::sdk::ProverFactory<TestProver>);
#endif
