// TEST DOUBLE, never shipped as a plugin: the pi pacer plus the synthesis-throughput cap
// the reference engine once had (PACING.md failure 4). The admission interval may not be
// shorter than the observed interval between synthesis completions. That is a positive
// feedback loop: fewer admissions -> fewer completions -> a longer observed interval ->
// fewer admissions, and the pipeline collapses. It exists so a test can show the
// collapse in the simulator and that the real pi pacer, which has no such cap, does not.
#pragma once

#include "pi_pacer.hpp"

#include <zkpipe/zkp_pacer.h>

namespace zkp::pacing_sim {

// The double's pacer factory (options: pi's).
const zkp_pacer_factory_t& synthesis_capped_pacer_factory();

}  // namespace zkp::pacing_sim
