#include "services/snarkjs_result.hpp"

#include <zkpipe/sdk/error.hpp>

#include "core/formats/groth16_json.hpp"
#include "core/formats/proof_bytes.hpp"
#include "services/names.hpp"

#include <exception>

namespace zkp::services {

std::vector<ByteVec> public_scalars(const uint8_t* bytes, size_t size) {
  std::vector<ByteVec> out;
  const auto* p = reinterpret_cast<const std::byte*>(bytes);
  for (size_t off = 0; p != nullptr && off + ZKP_SCALAR_SIZE <= size; off += ZKP_SCALAR_SIZE) {
    out.emplace_back(p + off, p + off + ZKP_SCALAR_SIZE);
  }
  return out;
}

std::optional<SnarkjsFiles> snarkjs_files(const zkp_completion_t& c) {
  const std::optional<Curve> curve = formats_curve(c.curve);
  if (c.status != ZKP_OK || c.proof == nullptr || !curve) return std::nullopt;
  try {
    const auto* proof = reinterpret_cast<const std::byte*>(c.proof);
    SnarkjsFiles files;
    files.proof_json = write_proof_json(proof_from_bytes(*curve, ByteView(proof, c.proof_size), "proof"));
    files.public_json = write_public_json(public_scalars(c.public_inputs, c.public_size));
    return files;
  } catch (const std::exception& e) {
    throw sdk::Error(ZKP_ERR_INTERNAL, std::string("the prover's proof bytes do not convert to snarkjs JSON: ") + e.what());
  }
}

}  // namespace zkp::services
