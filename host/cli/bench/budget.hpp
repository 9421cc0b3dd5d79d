// How much each sweep point measures, and the progress callback: shared by the runners (a
// host in this process, local_runner.hpp; a `zkpipe serve`, host/net/serve_runner.hpp).
#pragma once

#include <cstdint>
#include <functional>

namespace zkp::cli::bench {

// `proofs` proofs, or (proofs 0) as many as are submitted within `duration_s`; `warmup`
// proofs first, uncounted.
struct Budget {
  uint64_t proofs = 0;
  double duration_s = 0;
  uint32_t warmup = 0;
};

// Called on the bench's main thread as measured proofs finish: how many have.
using ProofTick = std::function<void(uint64_t done)>;

}  // namespace zkp::cli::bench
