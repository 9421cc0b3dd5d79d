#include "cpu_prover.hpp"

#include <unistd.h>
#include <zkpipe/sdk/plugin.hpp>

#include <chrono>
#include <filesystem>

#include "cpu_key.hpp"
#include "format_errors.hpp"
#include "formats/error.hpp"
#include "groth16/point_check.hpp"
#include "pairing/bls12_381.hpp"
#include "pairing/bn254.hpp"

namespace zkp::cpu {
namespace {

PointCheck parse_key_check(const std::string& v) {
  if (v == "none" || v == "on_curve") return PointCheck::on_curve;  // "none" skips the pass (see check_keys)
  if (v == "subgroup") return PointCheck::subgroup;
  throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                   "prover 'cpu': option 'key_check' = '" + v + "' is not none, on_curve or subgroup");
}

const KeyBase& key_of(const zkp_key_t& key) {
  const auto* k = dynamic_cast<const KeyBase*>(&key);
  if (k == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the key was not loaded by the cpu prover");
  return *k;
}

// A key and the op it started, so prove_finish can reach the key from the op alone.
struct OpHolder final : zkp_prove_op_t {
  const KeyBase* key = nullptr;
  std::unique_ptr<zkp_prove_op_t> op;
};

std::uint64_t sysconf_bytes(int pages_name) {
  const long pages = ::sysconf(pages_name), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

}  // namespace

CpuProver::CpuProver(const sdk::HostServices& host, sdk::Options& options) {
  const auto threads = static_cast<unsigned>(options.get_u64("threads", 0, 0, 4096));
  const bool verify_proofs = options.get_bool("verify", true);
  const std::string key_check = options.get_string("key_check", "on_curve");
  const std::string r1cs = options.get_string("r1cs", "");
  shared_ = std::make_unique<Shared>(host, threads, verify_proofs, key_check != "none", parse_key_check(key_check), r1cs);
}

void CpuProver::device_info(uint32_t, zkp_device_info_t& out) const {
  sdk::copy_name(out.name, "cpu (" + std::to_string(shared_->pool.size()) + " threads)");
  out.memory_bytes = sysconf_bytes(_SC_PHYS_PAGES);
  out.memory_free_bytes = sysconf_bytes(_SC_AVPHYS_PAGES);
  out.partitions_started = shared_->started.load();
  out.partitions_proved = shared_->proved.load();
  out.busy_ns = shared_->busy_ns.load();
}

std::unique_ptr<zkp_key_t> CpuProver::key_load(const zkp_key_source_t& source, int32_t) {
  return translate_format_errors([&]() -> std::unique_ptr<zkp_key_t> {
    const auto t0 = std::chrono::steady_clock::now();
    ByteSource bytes = [&] {
      if (source.path != nullptr) return ByteSource::from_file(source.path);
      if (source.data == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_key_source_t has neither path nor data");
      // The ABI keeps the buffer valid until key_free, so it is borrowed, not copied.
      return ByteSource::borrow({static_cast<const std::byte*>(source.data), source.size}, "zkey buffer");
    }();
    ZkeyReadOptions read_options;
    if (shared_->check_keys) read_options.validate_points = groth16::make_point_validator(shared_->key_check, shared_->pool);
    Zkey zkey = read_zkey(std::move(bytes), read_options);
    std::optional<R1cs> r1cs;
    if (!shared_->r1cs_path.empty()) r1cs = read_r1cs(ByteSource::from_file(shared_->r1cs_path));
    std::unique_ptr<zkp_key_t> key;
    if (zkey.header().curve == Curve::bn254) {
      key = std::make_unique<CurveKey<bn254::Engine>>(std::move(zkey), std::move(r1cs));
    } else {
      key = std::make_unique<CurveKey<bls12_381::Engine>>(std::move(zkey), std::move(r1cs));
    }
    zkp_key_info_t info = sdk::make_struct<zkp_key_info_t>();
    key_of(*key).info(info);
    shared_->host.info("cpu: loaded key " + (source.path != nullptr ? std::string(source.path) : "(buffer)") + ": " +
                       (info.curve == ZKP_CURVE_BN254 ? "BN254" : "BLS12-381") + ", " + std::to_string(info.n_vars) +
                       " wires, domain " + std::to_string(info.domain_size) + ", " +
                       std::to_string(detail::ns_since(t0) / 1'000'000) + " ms");
    return key;
  });
}

void CpuProver::key_info(const zkp_key_t& key, zkp_key_info_t& out) const { key_of(key).info(out); }

std::unique_ptr<zkp_synthesis_t> CpuProver::synthesize(const zkp_key_t& key, const zkp_witness_t& witness) {
  return translate_format_errors([&] { return key_of(key).synthesize(witness, *shared_); });
}

std::unique_ptr<zkp_prove_op_t> CpuProver::prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                                       int32_t, uint32_t) {
  return translate_format_errors([&]() -> std::unique_ptr<zkp_prove_op_t> {
    auto holder = std::make_unique<OpHolder>();
    holder->key = &key_of(key);
    holder->op = holder->key->prove_start(input, *shared_);
    shared_->started.fetch_add(1);
    return holder;
  });
}

void CpuProver::prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) {
  translate_format_errors([&] {
    auto& holder = dynamic_cast<OpHolder&>(*op);
    holder.key->prove_finish(*holder.op, out, *shared_);
    shared_->proved.fetch_add(1);
    shared_->busy_ns.fetch_add(out.gpu_duration_ns);
  });
}

bool CpuProver::verify(const zkp_key_t& key, std::span<const uint8_t> proof,
                       std::span<const uint8_t> public_inputs) const {
  return translate_format_errors([&] { return key_of(key).verify(proof, public_inputs); });
}

}  // namespace zkp::cpu

ZKP_PLUGIN("cpu", "1.0.0", "Groth16 on the CPU for snarkjs zkeys (BN254, BLS12-381), byte-identical to snarkjs",
           zkp::sdk::ProverFactory<zkp::cpu::CpuProver>);
