// isolation = process (issue 17): a zkp_prover_t implemented by the host that runs each
// device of a prover plugin in a zkpipe-device process of its own (device_process.hpp) and
// forwards the calls, so the pipeline, the workers and the watchdog drive it like any prover.
//
//   key_load       the key (its path, or its bytes copied once into a memfd) is loaded in every
//                  device's process, and again in each restarted one
//   synthesize     on the host's synthesis thread: copies the witness (a .wtns buffer or an
//                  assignment; a .wtns file goes by its path) into the partition's shared buffer
//                  and, when the plugin has synthesize_into for the key (key_info.synthesized_bytes
//                  from every device process), has the least busy device process holding the key
//                  synthesize it there, on that process's synthesis pool, into the buffer's input
//                  region as caller-synthesized inputs; the witness's pages are then given back.
//                  A process that dies meanwhile fails that attempt only: another device process
//                  synthesizes it (each at most once), else the synthesis fails with its death.
//                  Without synthesize_into the device process synthesizes right before the proof,
//                  on its proving thread (the first release's way, which costs proofs/s on a GPU)
//   prove_start    sends the partition to its device's process — any device: a synthesized
//                  partition is caller-synthesized input, tied to no process (caller inputs are
//                  copied into a shared buffer here); prove_finish waits for the reply and takes
//                  the proof from the shared buffer
//
// Why the device process synthesizes, not the host: the host holds no prover (the plugin, and
// a GPU runtime with it, is loaded in the device processes only, so a fault stays there), and
// only the plugin knows its key format. The result lands once in memory the host owns, so a
// retry on another device after a crash reads the same bytes, and nothing is copied again.
//   verify         asks any device process that is serving
//
// A device process that dies fails only its partitions in flight, with ZKP_ERR_DEVICE, so the
// pipeline retries them elsewhere as device_retries allows; the process is restarted
// (device_process.hpp). One whose prover answers ZKP_ERR_DEVICE_LOST sends that answer, exits
// and is restarted the same way: the new process has a CUDA context of its own. The memory budget reserves key_info.synthesis_bytes per partition: the
// plugin's figure, or the shared buffer of a partition synthesized in a device process when
// that is larger (it holds c = a∘b too).
#pragma once

#include "isolation/device_process.hpp"

#include <zkpipe/zkp_prover.h>

#include <cstdint>
#include <functional>
#include <string>

namespace zkp::host::isolation {

// What the host may do to an isolated prover's devices beyond the ABI.
class DeviceControl {
 public:
  virtual ~DeviceControl() = default;
  // The partition watchdog declared a partition on `device` hung: kill its process.
  virtual void kill_device(uint32_t device, const std::string& reason) = 0;
  // Device processes restarted so far, every device together.
  virtual uint64_t restarts() const = 0;
  // `hook(device)` is called, on that device's keeper thread, each time its process has been
  // restarted and is serving again (its keys loaded). An empty hook stops the calls; setting
  // one waits for a call in progress, so once it returns the old hook is never called again.
  virtual void on_device_back(std::function<void(uint32_t device)> hook) = 0;
};

// Starts the first device's process, learns the device count from it, then starts one per
// other device. Throws zkp::sdk::Error (a missing executable, the plugin's own refusal). The
// table is owned by the caller until its destroy(); *control lives as long as the table.
zkp_prover_t* create_isolated_prover(const DeviceProcessSpec& spec, DeviceControl** control);

}  // namespace zkp::host::isolation
