// A completion's proof as snarkjs's two files, proof.json and public.json: what serve's
// PartitionResult (proof_json, public_json) and the fleet's results row carry. The one place
// a front end turns the ABI's proof bytes into JSON.
#pragma once

#include <zkpipe/zkp_host.h>

#include <optional>
#include <string>
#include <vector>

#include "core/formats/bytes.hpp"

namespace zkp::services {

struct SnarkjsFiles {
  std::string proof_json;   // snarkjs's proof.json, byte for byte
  std::string public_json;  // snarkjs's public.json
};

// The public inputs of a completion (or any n_public scalars of ZKP_SCALAR_SIZE bytes), one
// scalar each; a trailing partial scalar is left out.
std::vector<ByteVec> public_scalars(const uint8_t* bytes, size_t size);

// nullopt when there is no proof to write: the partition failed, or its prover gave no proof
// bytes or no curve zkpipe knows (a simulated prover). Throws zkp::sdk::Error
// (ZKP_ERR_INTERNAL, "the prover's proof bytes do not convert to snarkjs JSON: ...") when the
// bytes are not a proof of that curve.
std::optional<SnarkjsFiles> snarkjs_files(const zkp_completion_t& completion);

}  // namespace zkp::services
