// Reading the witness of one partition (zkp_witness_t) into the assignment, for every key
// format: a .wtns file or buffer (checked against the key by `check_wtns`: curve, wire count)
// or a raw assignment of n_vars scalars; every value below r, w[0] = 1. BAD_INPUT otherwise.
#pragma once

#include <zkpipe/zkp_prover.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/backend/errors.hpp"
#include "core/formats/wtns.hpp"
#include "core/groth16/witness.hpp"

namespace zkp::backend {

// The most bytes a .wtns of `n_vars` wires can take: its values plus a generous allowance for the
// container and header (a snarkjs witness has 76 bytes of them). A bigger file is refused before
// it is read, so a 1 GiB witness given for a 4-wire key costs a stat, not a 1 GiB read.
inline std::uint64_t max_wtns_bytes(std::uint64_t n_vars) { return n_vars * ZKP_SCALAR_SIZE + 4096; }

// The witness file, read only if its size fits the key (max_wtns_bytes); BAD_INPUT otherwise.
// With a pool, read in pieces on its threads (FileContents).
inline ByteSource witness_file(const char* path, std::uint64_t n_vars, ThreadPool* pool = nullptr) {
  const std::uint64_t limit = max_wtns_bytes(n_vars);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > limit) {
    throw bad_input(std::string(path) + ": the witness is " + std::to_string(size) + " bytes; a witness of the key's " +
                    std::to_string(n_vars) + " wires is at most " + std::to_string(limit) + " bytes");
  }
  return ByteSource::from_file(path, limit, pool);  // the bound again, should the file grow after the stat
}

template <class Fr, class CheckWtns>
std::vector<typename Fr::Int> read_witness(const zkp_witness_t& witness, std::uint64_t n_vars, CheckWtns&& check_wtns,
                                           ThreadPool* pool = nullptr) {
  switch (witness.kind) {
    case ZKP_WITNESS_WTNS_FILE:
    case ZKP_WITNESS_WTNS_BUFFER: {
      if (witness.kind == ZKP_WITNESS_WTNS_FILE && witness.path == nullptr) throw bad_input("witness path is NULL");
      if (witness.kind == ZKP_WITNESS_WTNS_BUFFER && witness.data == nullptr) throw bad_input("witness data is NULL");
      ByteSource src = witness.kind == ZKP_WITNESS_WTNS_FILE
                           ? witness_file(witness.path, n_vars, pool)
                           : ByteSource::borrow({static_cast<const std::byte*>(witness.data), witness.size},
                                                "witness buffer");
      const Wtns wtns = read_wtns(std::move(src));
      check_wtns(wtns);
      return groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name(), pool);
    }
    case ZKP_WITNESS_ASSIGNMENT: {
      if (witness.data == nullptr) throw bad_input("assignment data is NULL");
      if (witness.size != n_vars * ZKP_SCALAR_SIZE) {
        throw bad_input("assignment is " + std::to_string(witness.size) + " bytes; the key has " + std::to_string(n_vars) +
                        " wires x " + std::to_string(ZKP_SCALAR_SIZE));
      }
      return groth16::load_assignment<Fr>({static_cast<const std::byte*>(witness.data), witness.size}, n_vars,
                                          "assignment", pool);
    }
    case ZKP_WITNESS_NONE:
      throw bad_input("a Groth16 prover needs a witness (kind ZKP_WITNESS_NONE given)");
    default:
      throw bad_input("unknown witness kind " + std::to_string(witness.kind));
  }
}

}  // namespace zkp::backend
