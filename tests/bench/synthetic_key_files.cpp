// bench_synthetic_key_files CURVE:LOG2 DIR — writes `zkpipe bench --synthetic`'s key and witness
// as DIR/circuit.zkey and DIR/witness.wtns, so that snarkjs can check the generator from outside
// (synthetic_snarkjs.sh). Test-only: the bench itself never writes its INSECURE keys to disk.
#include "bench/synthetic_key.hpp"
#include "bench/synthetic_spec.hpp"
#include "services/command/command.hpp"
#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using zkp::cli::bench::SyntheticCurve;

constexpr uint32_t kScalarBytes = 32;  // ZKP_ASSIGNMENT scalars, and n8 of both curves' Fr
constexpr uint32_t kWtnsVersion = 2;
constexpr uint32_t kWtnsSections = 2;
constexpr uint32_t kWtnsHeader = 1, kWtnsValues = 2;

// Fr's modulus, little-endian: snarkjs's wtns header carries the prime.
std::array<uint8_t, kScalarBytes> scalar_prime(SyntheticCurve curve) {
  std::array<uint8_t, kScalarBytes> r{};
  if (curve == SyntheticCurve::bn254) zkp::bn254::Fr::kModulus.to_le_bytes(r);
  else zkp::bls12_381::Fr::kModulus.to_le_bytes(r);
  return r;
}

void put_u32(std::ofstream& out, uint32_t v) { out.write(reinterpret_cast<const char*>(&v), sizeof v); }
void put_u64(std::ofstream& out, uint64_t v) { out.write(reinterpret_cast<const char*>(&v), sizeof v); }

// snarkjs's .wtns (wtns_utils.js): "wtns", version 2, a header section (n8, prime, count) and
// the values, standard form little-endian: the assignment's own layout.
void write_wtns(const std::string& path, SyntheticCurve curve, const std::vector<std::byte>& assignment) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write("wtns", 4);
  put_u32(out, kWtnsVersion);
  put_u32(out, kWtnsSections);
  put_u32(out, kWtnsHeader);
  put_u64(out, sizeof(uint32_t) + kScalarBytes + sizeof(uint32_t));
  put_u32(out, kScalarBytes);
  const std::array<uint8_t, kScalarBytes> prime = scalar_prime(curve);
  out.write(reinterpret_cast<const char*>(prime.data()), kScalarBytes);
  put_u32(out, static_cast<uint32_t>(assignment.size() / kScalarBytes));
  put_u32(out, kWtnsValues);
  put_u64(out, assignment.size());
  out.write(reinterpret_cast<const char*>(assignment.data()), static_cast<std::streamsize>(assignment.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: bench_synthetic_key_files CURVE:LOG2 DIR\n";
    return 2;
  }
  try {
    const auto spec = zkp::cli::bench::parse_synthetic_spec("CURVE:LOG2", argv[1]);
    const auto key = zkp::cli::bench::make_synthetic_key(spec, 0);
    const std::string dir = argv[2];
    std::ofstream zkey(dir + "/circuit.zkey", std::ios::binary | std::ios::trunc);
    zkey.write(reinterpret_cast<const char*>(key.zkey.data()), static_cast<std::streamsize>(key.zkey.size()));
    if (!zkey) throw std::runtime_error("cannot write " + dir + "/circuit.zkey");
    write_wtns(dir + "/witness.wtns", spec.curve, key.assignment);
    return 0;
  } catch (const zkp::cli::UsageError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "bench_synthetic_key_files: " << e.what() << "\n";
    return 1;
  }
}
