// The `pi` pacer plugin: the PI controller of PACING.md behind the zkp.pacer/1 ABI.
#include "pi_pacer.hpp"

#include <zkpipe/sdk/plugin.hpp>

ZKP_PLUGIN("pi", "1.0.0", "PI controller of the GPU queue depth with GPU-rate feed-forward",
           zkp::sdk::PacerFactory<zkp::pacing::PiPacer>);
