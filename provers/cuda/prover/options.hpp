// The cuda prover's options (kOptionsHelp in cuda_prover.hpp documents them for users), parsed
// once at create() from the host config's [prover] section. Plain C++: no CUDA here, so the
// parsing is unit-tested on machines without a GPU.
#pragma once

#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/options.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/backend/key_files.hpp"


namespace zkp::cuda::prover {

// Where a stage that the device may not (yet) implement runs.
enum class Placement { device, host };

// How a proof's section MSMs share its device: all queued at once, or one after another.
enum class MsmOrder { concurrent, sequential };

// Where the section MSMs' per-call scratch lives on a device (cuda/msm/workspace.hpp): one per
// section (the sections run concurrently), one shared by all (they run one after another; the
// scratch of the largest instead of the sum: what lets a 2^27 partition fit), or automatic:
// per section when the key fits that way, else shared.
enum class MsmScratch { automatic, per_section, shared };

// Whether a bellperson key's host copies of its queries stay once they are on the devices
// key_load placed it on: drop frees them (44 GiB of host memory at a 2^27 PoRep partition),
// and a later key_load of the same file on another device reads the file again.
enum class HostBases { keep, drop };

struct ProverOptions {
  // CUDA ordinals the prover drives, in gpu_index order; empty with all_devices = true means
  // "every device the runtime reports", resolved at create().
  std::vector<int> devices;
  bool all_devices = true;
  // Lanes (stream + scratch + thread) per device: one per host worker, the host's
  // workers_per_device (zkp_prover_facts_t), not an option of the prover's own.
  unsigned workers = 2;
  std::uint64_t pinned_pool_bytes = 0;  // 0: exactly what the loaded keys need
  std::uint64_t device_memory_bytes = 0;  // per device; 0: all the device has
  bool verify = true;
  unsigned msm_precompute = 0;   // F of cuda::msm::Config; 0 = every window (fastest, most memory)
  unsigned msm_window_bits = 0;  // c; 0 = the cost model's choice
  MsmOrder msm_order = MsmOrder::concurrent;
  MsmScratch msm_scratch = MsmScratch::automatic;
  HostBases host_bases = HostBases::drop;
  Placement g2 = Placement::device;
  Placement h = Placement::device;
  // Where a zkey partition's a = A·w and b = B·w are evaluated from its witness: the host's cores
  // (synthesis, before the GPU queue) or the device (provers/cuda/synth, from the witness the
  // MSMs upload anyway; needs h=device; bellperson keys take their a, b from the caller).
  Placement synthesis = Placement::host;
  unsigned host_threads = 0;     // option threads: synthesis, checks, host H, host G2; 0 = all
  backend::KeySettings key;      // options key_check and r1cs, as every backend reads them
};

// Every option of the cuda prover: default (ProverOptions' initializers), parsing and help in one
// table; the factory's options_help is its help().
const sdk::OptionTable<ProverOptions>& option_table();

// Reads every option the cuda prover knows from `options` (sdk::Options::finish then rejects
// the rest). Throws sdk::Error(ZKP_ERR_INVALID_ARGUMENT) naming the key for a malformed value.
ProverOptions parse_options(sdk::Options& options);

// "all" or a comma-separated list of distinct CUDA ordinals ("0,1") into out.devices and
// out.all_devices; false (out unchanged) for anything else, which the option table reports.
bool parse_devices(const std::string& value, ProverOptions& out);

const char* to_string(Placement p);
const char* to_string(MsmOrder o);
const char* to_string(MsmScratch s);
const char* to_string(HostBases b);

}  // namespace zkp::cuda::prover
