#include <zkpipe/host/witness_generator.hpp>

#include <zkpipe/host/plugin_library.hpp>
#include <zkpipe/zkp_prover.h>
#include <zkpipe/sdk/error.hpp>

#include <cstring>

#include "core/formats/curve.hpp"
#include "host_services.hpp"

namespace zkp::host {

using sdk::Error;

namespace {

// Appends to a buffer sized up front (no reallocation, which GCC 12's -Wstringop-overflow
// misreads in vector::insert).
struct Writer {
  std::uint8_t* at;
  void put(const void* data, std::size_t n) {
    std::memcpy(at, data, n);
    at += n;
  }
  template <class T>
  void put(T v) {
    put(&v, sizeof v);
  }
};

}  // namespace

WitnessGenerator WitnessGenerator::open(const std::filesystem::path& file,
                                        const std::vector<std::pair<std::string, std::string>>& options) {
  auto library = PluginLibrary::open(file);
  const auto* factory =
      static_cast<const zkp_witness_factory_t*>(library->require_factory(ZKP_WITNESS_FACTORY_ID, "witness generator"));
  if (factory->create == nullptr) throw Error(ZKP_ERR_ABI_MISMATCH, library->describe() + ": its witness factory has no create");
  std::vector<zkp_option_t> opts;
  for (const auto& [k, v] : options) opts.push_back({k.c_str(), v.c_str()});
  auto err = sdk::make_struct<zkp_error_t>();
  auto services = PluginServices::create("witness " + library->name());
  zkp_witness_generator_t* generator = nullptr;
  const zkp_status_t s = factory->create(services->get(), opts.data(), opts.size(), &generator, &err);
  if (s != ZKP_OK || generator == nullptr) {
    throw Error(s == ZKP_OK ? ZKP_ERR_INTERNAL : s, library->describe() + ": creating the witness generator: " + err.message);
  }
  return WitnessGenerator(std::move(library), std::move(services), generator);
}

WitnessGenerator::WitnessGenerator(std::shared_ptr<PluginLibrary> library, std::unique_ptr<PluginServices> services,
                                   zkp_witness_generator_t* generator)
    : library_(std::move(library)), services_(std::move(services)), generator_(generator) {
  circuit_ = sdk::make_struct<zkp_witness_circuit_t>();
  auto err = sdk::make_struct<zkp_error_t>();
  if (generator_->circuit == nullptr || generator_->calculate == nullptr || generator_->destroy == nullptr) {
    if (generator_->destroy != nullptr) generator_->destroy(generator_);
    throw Error(ZKP_ERR_ABI_MISMATCH, library_->describe() + ": its witness generator table has a NULL entry");
  }
  if (const zkp_status_t s = generator_->circuit(generator_, &circuit_, &err); s != ZKP_OK) {
    generator_->destroy(generator_);
    throw Error(s, library_->describe() + ": circuit: " + err.message);
  }
  circuit_name_ = circuit_.name == nullptr ? "" : circuit_.name;
  circuit_.name = circuit_name_.c_str();
}

WitnessGenerator::WitnessGenerator(WitnessGenerator&& other) noexcept
    : library_(std::move(other.library_)), services_(std::move(other.services_)),
      generator_(std::exchange(other.generator_, nullptr)),
      circuit_(other.circuit_), circuit_name_(std::move(other.circuit_name_)) {
  circuit_.name = circuit_name_.c_str();
}

WitnessGenerator::~WitnessGenerator() {
  if (generator_ != nullptr) generator_->destroy(generator_);
}

std::string WitnessGenerator::describe() const {
  return "witness generator of circuit " + circuit_name_ + " (" + library_->describe() + ")";
}

std::vector<std::uint8_t> WitnessGenerator::calculate(std::string_view input) const {
  std::vector<std::uint8_t> out(std::size_t{circuit_.n_signals} * ZKP_SCALAR_SIZE);
  std::size_t size = 0;
  auto err = sdk::make_struct<zkp_error_t>();
  const zkp_status_t s = generator_->calculate(generator_, input.data(), input.size(), out.data(), out.size(), &size, &err);
  if (s != ZKP_OK) throw Error(s, err.message);
  if (size != out.size()) {
    throw Error(ZKP_ERR_INTERNAL, describe() + " wrote " + std::to_string(size) + " bytes, its circuit has " +
                                      std::to_string(circuit_.n_signals) + " signals");
  }
  return out;
}

std::vector<std::uint8_t> wtns_file_bytes(zkp_curve_t curve, std::span<const std::uint8_t> assignment) {
  if (curve != ZKP_CURVE_BN254 && curve != ZKP_CURVE_BLS12_381) {
    throw Error(ZKP_ERR_BAD_INPUT, "a .wtns of a curve other than BN254 and BLS12-381");
  }
  // The scalar field's prime, as the formats library's curve table has it (n8r bytes, LE).
  const ByteView prime = curve_info(curve == ZKP_CURVE_BN254 ? Curve::bn254 : Curve::bls12_381).r;
  if (prime.size() != ZKP_SCALAR_SIZE) throw Error(ZKP_ERR_INTERNAL, "a scalar prime of other than 32 bytes");
  constexpr std::uint32_t kN8 = ZKP_SCALAR_SIZE;
  constexpr std::size_t kHeader = 4 + 4 + 4 + (4 + 8 + 4 + kN8 + 4) + (4 + 8);
  std::vector<std::uint8_t> out(kHeader + assignment.size());
  Writer w{out.data()};
  w.put("wtns", 4);
  w.put<std::uint32_t>(2);  // version
  w.put<std::uint32_t>(2);  // sections
  w.put<std::uint32_t>(1);  // header: n8, prime, count
  w.put<std::uint64_t>(4 + kN8 + 4);
  w.put<std::uint32_t>(kN8);
  w.put(prime.data(), kN8);
  w.put<std::uint32_t>(static_cast<std::uint32_t>(assignment.size() / kN8));
  w.put<std::uint32_t>(2);  // values
  w.put<std::uint64_t>(assignment.size());
  if (!assignment.empty()) w.put(assignment.data(), assignment.size());
  return out;
}

}  // namespace zkp::host
