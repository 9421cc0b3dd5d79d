// A witness generator plugin ("zkp.witness/1", zkp_witness.h) as the front ends use it: loaded
// from its file (the host's plugin loader: ABI negotiation, init, refcounted unloading),
// created with its options, and asked for witnesses. Shared by `zkpipe witness` and, next, the
// pipeline's synthesis stage for jobs of inputs (issue 41).
#pragma once

#include <zkpipe/zkp_witness.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zkp::host {

class PluginLibrary;
class PluginServices;

class WitnessGenerator {
 public:
  // Loads the plugin at `file` and creates its generator. Throws sdk::Error: the plugin
  // loader's (NOT_FOUND, BAD_INPUT, ABI_MISMATCH), NOT_FOUND for a plugin without a witness
  // factory, or the factory's (an unknown option).
  static WitnessGenerator open(const std::filesystem::path& file,
                               const std::vector<std::pair<std::string, std::string>>& options = {});
  ~WitnessGenerator();
  WitnessGenerator(WitnessGenerator&& other) noexcept;
  WitnessGenerator& operator=(WitnessGenerator&&) = delete;
  WitnessGenerator(const WitnessGenerator&) = delete;

  const zkp_witness_circuit_t& circuit() const { return circuit_; }
  // The witness of `input` (JSON text): n_signals scalars, ZKP_WITNESS_ASSIGNMENT's layout.
  // Any thread. Throws sdk::Error with the generator's status and message.
  std::vector<std::uint8_t> calculate(std::string_view input) const;
  std::string describe() const;  // "witness generator 'circom' (circuit chain, /path/x.so)"

 private:
  WitnessGenerator(std::shared_ptr<PluginLibrary> library, std::unique_ptr<PluginServices> services,
                   zkp_witness_generator_t* generator);
  std::shared_ptr<PluginLibrary> library_;
  std::unique_ptr<PluginServices> services_;  // outlives generator_: it logs through them
  zkp_witness_generator_t* generator_ = nullptr;
  zkp_witness_circuit_t circuit_{};
  std::string circuit_name_;
};

// A witness as snarkjs's .wtns bytes (version 2: a header section with the prime, then the
// values): what `snarkjs wtns calculate` writes, for the circuit's curve (BN254 or BLS12-381;
// BAD_INPUT for another).
std::vector<std::uint8_t> wtns_file_bytes(zkp_curve_t curve, std::span<const std::uint8_t> assignment);

}  // namespace zkp::host
