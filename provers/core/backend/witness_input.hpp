// Reading the witness of one partition (zkp_witness_t) into the assignment, for every key
// format: a .wtns file or buffer (checked against the key by `check_wtns`: curve, wire count)
// or a raw assignment of n_vars scalars; every value below r, w[0] = 1. BAD_INPUT otherwise.
#pragma once

#include <zkpipe/zkp_prover.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/backend/errors.hpp"
#include "core/formats/wtns.hpp"
#include "core/groth16/witness.hpp"

namespace zkp::backend {

template <class Fr, class CheckWtns>
std::vector<typename Fr::Int> read_witness(const zkp_witness_t& witness, std::uint64_t n_vars, CheckWtns&& check_wtns) {
  switch (witness.kind) {
    case ZKP_WITNESS_WTNS_FILE:
    case ZKP_WITNESS_WTNS_BUFFER: {
      if (witness.kind == ZKP_WITNESS_WTNS_FILE && witness.path == nullptr) throw bad_input("witness path is NULL");
      if (witness.kind == ZKP_WITNESS_WTNS_BUFFER && witness.data == nullptr) throw bad_input("witness data is NULL");
      ByteSource src = witness.kind == ZKP_WITNESS_WTNS_FILE
                           ? ByteSource::from_file(witness.path)
                           : ByteSource::borrow({static_cast<const std::byte*>(witness.data), witness.size},
                                                "witness buffer");
      const Wtns wtns = read_wtns(std::move(src));
      check_wtns(wtns);
      return groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
    }
    case ZKP_WITNESS_ASSIGNMENT: {
      if (witness.data == nullptr) throw bad_input("assignment data is NULL");
      if (witness.size != n_vars * ZKP_SCALAR_SIZE) {
        throw bad_input("assignment is " + std::to_string(witness.size) + " bytes; the key has " + std::to_string(n_vars) +
                        " wires x " + std::to_string(ZKP_SCALAR_SIZE));
      }
      return groth16::load_assignment<Fr>({static_cast<const std::byte*>(witness.data), witness.size}, n_vars,
                                          "assignment");
    }
    case ZKP_WITNESS_NONE:
      throw bad_input("a Groth16 prover needs a witness (kind ZKP_WITNESS_NONE given)");
    default:
      throw bad_input("unknown witness kind " + std::to_string(witness.kind));
  }
}

}  // namespace zkp::backend
