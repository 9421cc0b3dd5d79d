// A plugin as a third party built it against zkpipe's ABI version 1: compiled with only the v1
// copy of the installed headers (v1/include: abi/ and the SDK as published), never with
// today's. Frozen like them. Every later build loads it (compat_test.cpp, check-plugin, a
// pipeline run) to show that such a plugin keeps working.
//
// A simulated prover (one device, no proof bytes) and a pacer that admits whenever asked, in
// one library: what the ABI asks of each, and nothing that needs a key on disk.
#include <zkpipe/sdk/pacer.hpp>
#include <zkpipe/sdk/plugin.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <cstdio>

namespace {

struct Key final : zkp_key_t {};
struct Synthesis final : zkp_synthesis_t {};
struct Op final : zkp_prove_op_t {};

class CompatProver final : public zkp::sdk::Prover {
 public:
  static constexpr const char* kName = "compat_v1";
  static constexpr const char* kOptionsHelp = "(no options)\n";
  CompatProver(const zkp::sdk::HostServices&, zkp::sdk::Options&) {}

  uint32_t flags() const override { return ZKP_PROVER_FLAG_SIMULATED; }
  uint32_t device_count() const override { return 1; }
  void device_info(uint32_t, zkp_device_info_t& out) const override {
    zkp::sdk::copy_name(out.name, "compat v1 simulated device");
    out.memory_bytes = out.memory_free_bytes = 0;
    out.partitions_started = out.partitions_proved = out.busy_ns = 0;
  }
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t&, int32_t) override { return std::make_unique<Key>(); }
  void key_info(const zkp_key_t&, zkp_key_info_t& out) const override {
    out.curve = ZKP_CURVE_UNKNOWN;
    out.n_vars = out.n_public = out.domain_size = 0;
    out.synthesis_bytes = 1024;
    out.proof_size = out.public_size = 0;
  }
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t&, const zkp_witness_t&) override {
    return std::make_unique<Synthesis>();
  }
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t&, const zkp_prove_input_t&, int32_t, uint32_t) override {
    return std::make_unique<Op>();
  }
  void prove_finish(std::unique_ptr<zkp_prove_op_t>, zkp_prove_output_t& out) override {
    out.proof_size = out.public_size = 0;
    out.gpu_index = 0;
    out.gpu_duration_ns = out.epilogue_ns = out.msm_ns = out.ntt_ns = 0;
    zkp::sdk::set_output_flags(out, 0);  // written only when the caller's struct has the field
  }
};

class CompatPacer final : public zkp::sdk::Pacer {
 public:
  static constexpr const char* kName = "compat_v1";
  static constexpr const char* kOptionsHelp = "(no options)\n";
  CompatPacer(const zkp::sdk::HostServices&, const zkp_pacer_facts_t&, zkp::sdk::Options&) {}
  void on_event(const zkp_pacer_event_t& e) override {
    if (e.kind == ZKP_PACER_EVENT_ADMITTED) ++admitted_;
  }
  uint64_t next_admission_ns(const zkp_pipeline_state_t&) override { return 0; }
  std::string status_line() override {
    char line[64];
    std::snprintf(line, sizeof line, "compat_v1: admitted=%llu", static_cast<unsigned long long>(admitted_));
    return line;
  }

 private:
  uint64_t admitted_ = 0;
};

}  // namespace

ZKP_PLUGIN("compat_v1", "1.0.0", "built against the ABI v1 headers (tests/abi/compat)",
           zkp::sdk::ProverFactory<CompatProver>, zkp::sdk::PacerFactory<CompatPacer>);
