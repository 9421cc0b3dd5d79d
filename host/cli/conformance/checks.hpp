// `zkpipe check-plugin`'s suites. Each prints one line per check into the report.
//
//   check_entry   the library: it loads, its zkp_plugin_entry (header, ABI range, identity),
//                 get_factory for ids it does not have, a factory this host knows.
//   check_prover  a prover factory: options refused by name, struct headers honoured, the
//                 devices, and on each given vector whose curve the plugin supports: key_info
//                 and proofs byte-identical to the built-in cpu prover's for fixed (r, s), an
//                 unsatisfied witness refused, ZKP_ERR_SHORT_BUFFER for a short proof buffer,
//                 a first-release output struct left alone past its size, gpu_index out of
//                 range refused, verify() (when flagged) right both ways, and key_free /
//                 synthesis_free returning what the cycle allocated (malloc's count); then
//                 the thread rules: 4 workers per device and 4 synthesis threads at once,
//                 two ops per worker, proofs still the reference's, and host-service calls
//                 back (recorded with their threads) only while the prover lives.
//   check_pacer   a pacer factory: options refused by name, the contract of next_admission_ns
//                 and status_line, unknown event kinds and newer, longer event structs, no
//                 host-service call after destroy (a host clock read is noted), and
//                 (given the simulator) a run of a scenario beside greedy.
#pragma once

#include "calls.hpp"
#include "report.hpp"

#include <zkpipe/host/plugin_library.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace zkp::conformance {

struct Settings {
  OptionList options;                // given to every create of the plugin under test
  std::vector<std::string> vectors;  // folders with circuit.zkey and witness.wtns
  std::string reference_prover;      // the built-in prover proofs must equal ("cpu" resolved)
  std::string pacing_sim;            // zkpipe-pacing-sim, or empty
  std::string scenario;              // a scenario for it
};

// Null if the library cannot be used at all (the failure is reported).
std::shared_ptr<host::PluginLibrary> check_entry(Report& report, const std::string& path);

void check_prover(Report& report, std::shared_ptr<host::PluginLibrary> lib, const Settings& settings);
// The proof checks of check_prover on one vector folder, against the reference prover `ref`;
// `p` has `device_count` devices (check_prover_vector.cpp).
void check_prover_vector(Report& report, zkp_prover_t* p, uint32_t device_count, zkp_prover_t* ref,
                         const std::filesystem::path& dir);
// The thread rules (check_threads.cpp): more than two workers and synthesis threads at once
// where the plugin takes them, proofs equal to `ref`'s (null: those checks skip), and no
// call back into the host services after destroy.
void check_prover_threads(Report& report, std::shared_ptr<host::PluginLibrary> lib, const Settings& settings,
                          zkp_prover_t* ref);
void check_pacer(Report& report, std::shared_ptr<host::PluginLibrary> lib, const Settings& settings);

}  // namespace zkp::conformance
