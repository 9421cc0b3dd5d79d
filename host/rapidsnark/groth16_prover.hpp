// One librapidsnark prover object: a zkpipe host (the backend of host_settings.hpp) with one
// zkey loaded on it. prove() submits a job of one partition and waits for that job alone, so
// calls from many threads run concurrently in the host's pipeline (synthesis pool, workers);
// the object itself holds no lock and no mutable state after construction.
#pragma once

#include <zkpipe/zkp_host.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"

namespace zkp::rapidsnark {

// What one proof produced, as JSON text.
struct ProofText {
  std::string proof;
  std::string public_signals;
};

class Groth16Prover {
 public:
  // A key from a file (read by the host) or from bytes (copied here: the caller's buffer may
  // go away after groth16_prover_create, and zkpipe reads a zkey in place). Throws.
  static std::unique_ptr<Groth16Prover> from_file(const std::string& path);
  static std::unique_ptr<Groth16Prover> from_bytes(ByteView zkey);
  ~Groth16Prover();
  Groth16Prover(const Groth16Prover&) = delete;
  Groth16Prover& operator=(const Groth16Prover&) = delete;

  // [any-thread, concurrently] Proves a .wtns held in `wtns` (read during the call). Throws
  // Failure(PROVER_INVALID_WITNESS_LENGTH) for a witness with another wire count than the key,
  // Failure(PROVER_ERROR) for any other failure.
  ProofText prove(ByteView wtns) const;

  Curve curve() const { return curve_; }
  std::uint32_t n_public() const { return info_.n_public; }

 private:
  struct HostDeleter {
    void operator()(zkp_host_t* host) const { zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN); }
  };

  explicit Groth16Prover(std::vector<std::byte> owned_key);
  void load(const zkp_key_source_t& source);

  std::vector<std::byte> key_bytes_;  // the zkey, when it came as bytes; outlives the host's key
  std::unique_ptr<zkp_host_t, HostDeleter> host_;  // declared after key_bytes_: destroyed first
  std::uint64_t key_id_ = 0;
  zkp_key_info_t info_{};
  Curve curve_ = Curve::bn254;
};

}  // namespace zkp::rapidsnark
