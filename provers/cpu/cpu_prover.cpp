#include "cpu_prover.hpp"

#include <unistd.h>
#include <zkpipe/sdk/plugin.hpp>

#include <chrono>

#include "core/backend/curve_key.hpp"
#include "core/backend/errors.hpp"
#include "core/backend/key_options.hpp"
#include "cpu_key.hpp"

namespace zkp::cpu {
namespace {

using backend::translate_format_errors;

const CpuKey& key_of(const zkp_key_t& key) {
  const auto* k = dynamic_cast<const CpuKey*>(&key);
  if (k == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the key was not loaded by the cpu prover");
  return *k;
}

std::uint64_t sysconf_bytes(int pages_name) {
  const long pages = ::sysconf(pages_name), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

constexpr std::uint64_t kMaxThreads = 4096;

std::uint64_t ms_since(std::chrono::steady_clock::time_point t0) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

const sdk::OptionTable<CpuSettings>& CpuProver::option_table() {
  static const sdk::OptionTable<CpuSettings> table{
      sdk::integer("threads", &CpuSettings::threads, 0, kMaxThreads,
                   "the prover's one pool of threads, and so its cap: synthesis, the H step, the MSMs and the "
                   "checks all run on it, whatever the host's worker count; 0 = every hardware thread of the "
                   "affinity mask"),
      sdk::flag("verify", &CpuSettings::verify,
                "verify every proof with the pairing before returning it; a proof that fails means the witness "
                "does not satisfy the circuit (ZKP_ERR_UNSATISFIED_WITNESS)"),
      backend::key_check_option(&CpuSettings::key),
      backend::params_check_option(&CpuSettings::key),
      backend::r1cs_option(&CpuSettings::key),
  };
  return table;
}

CpuProver::CpuProver(const sdk::HostServices& host, sdk::Options& options)
    : host_(host), settings_(option_table().read(options)), pool_(settings_.threads) {}

void CpuProver::device_info(uint32_t, zkp_device_info_t& out) const {
  sdk::copy_name(out.name, "cpu (" + std::to_string(pool_.size()) + " threads)");
  out.memory_bytes = sysconf_bytes(_SC_PHYS_PAGES);
  out.memory_free_bytes = sysconf_bytes(_SC_AVPHYS_PAGES);
  out.partitions_started = started_.load();
  out.partitions_proved = proved_.load();
  out.busy_ns = busy_ns_.load();
}

std::unique_ptr<zkp_key_t> CpuProver::key_load(const zkp_key_source_t& source, int32_t) {
  return translate_format_errors([&]() -> std::unique_ptr<zkp_key_t> {
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<CpuKey> key;
    if (sdk::key_format(source) == ZKP_KEY_FORMAT_BELLPERSON) {
      key = std::make_unique<CpuBellpersonKey>(backend::load_bellperson_key(source, settings_.key, pool_));
    } else if (sdk::key_format(source) == ZKP_KEY_FORMAT_ZKEY) {
      key = backend::load_key(source, settings_.key, pool_, [](auto curve_key) -> std::unique_ptr<CpuKey> {
        using E = typename decltype(curve_key)::element_type::Engine;
        return std::make_unique<CpuCurveKey<E>>(std::move(curve_key));
      });
    } else {
      throw sdk::Error(ZKP_ERR_UNSUPPORTED, "unknown key format " + std::to_string(sdk::key_format(source)));
    }
    zkp_key_info_t info = sdk::make_struct<zkp_key_info_t>();
    key->key().info(info);
    host_.info("cpu: loaded key " + backend::source_name(source) + ": " +
               (info.curve == ZKP_CURVE_BN254 ? "BN254" : "BLS12-381") + ", " + std::to_string(info.n_vars) +
               " wires, domain " + std::to_string(info.domain_size) + ", " + std::to_string(ms_since(t0)) + " ms");
    return key;
  });
}

void CpuProver::key_info(const zkp_key_t& key, zkp_key_info_t& out) const { key_of(key).key().info(out); }

std::unique_ptr<zkp_synthesis_t> CpuProver::synthesize(const zkp_key_t& key, const zkp_witness_t& witness) {
  return translate_format_errors([&] { return key_of(key).key().synthesize(witness, pool_); });
}

void CpuProver::synthesize_into(const zkp_key_t& key, const zkp_witness_t& witness, std::span<uint8_t> buffer,
                                zkp_synthesized_t& out) {
  translate_format_errors([&] { key_of(key).key().synthesize_into(witness, buffer, out, pool_); });
}

std::unique_ptr<zkp_prove_op_t> CpuProver::prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                                       int32_t, uint32_t) {
  return translate_format_errors([&]() -> std::unique_ptr<zkp_prove_op_t> {
    std::unique_ptr<CpuOp> op = key_of(key).start(input, pool_);
    started_.fetch_add(1);
    return op;
  });
}

void CpuProver::prove_wait(zkp_prove_op_t& op) {
  translate_format_errors([&] {
    auto* cpu_op = dynamic_cast<CpuOp*>(&op);
    if (cpu_op == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the op was not started by the cpu prover");
    cpu_op->compute(ProofSettings{pool_, settings_.verify});
  });
}

void CpuProver::prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) {
  translate_format_errors([&] {
    auto* cpu_op = dynamic_cast<CpuOp*>(op.get());
    if (cpu_op == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the op was not started by the cpu prover");
    cpu_op->finish(out, ProofSettings{pool_, settings_.verify});
    proved_.fetch_add(1);
    busy_ns_.fetch_add(out.gpu_duration_ns);
  });
}

bool CpuProver::verify(const zkp_key_t& key, std::span<const uint8_t> proof,
                       std::span<const uint8_t> public_inputs) const {
  return translate_format_errors([&] { return key_of(key).key().verify(proof, public_inputs); });
}

}  // namespace zkp::cpu

ZKP_PLUGIN("cpu", "1.0.0", "Groth16 on the CPU for snarkjs zkeys (BN254, BLS12-381), byte-identical to snarkjs",
           zkp::sdk::ProverFactory<zkp::cpu::CpuProver>);
