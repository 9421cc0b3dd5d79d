// The host's handle on one prover object created by a prover plugin. It keeps the
// plugin loaded (shared ownership of the PluginLibrary) and destroys the object when
// it goes. Keys and syntheses are RAII handles that free themselves through it, so
// they must not outlive it.
//
// Threading follows zkp_prover.h: [any-thread] calls may overlap; create and the
// destructor run on the thread that owns the host.
#pragma once

#include <zkpipe/host/config.hpp>
#include "host_services.hpp"
#include <zkpipe/host/plugin_library.hpp>
#include "status.hpp"
#include <zkpipe/zkp_prover.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace zkp::host {

class Prover;
namespace isolation {
class DeviceControl;
}

struct KeyFree {
  const Prover* prover;
  void operator()(zkp_key_t* key) const;
};
struct SynthesisFree {
  const Prover* prover;
  void operator()(zkp_synthesis_t* synthesis) const;
};
using KeyHandle = std::unique_ptr<zkp_key_t, KeyFree>;
using SynthesisHandle = std::unique_ptr<zkp_synthesis_t, SynthesisFree>;

class Prover {
 public:
  // Creates a prover through the library's "zkp.prover/1" factory: create_with_facts
  // when the table has it, else create (a plugin built before facts existed). Throws
  // zkp::sdk::Error: no such factory, a table too small, or the plugin's own error
  // (an unknown or bad option: its message names the plugin and the key).
  static std::unique_ptr<Prover> create(std::shared_ptr<PluginLibrary> library, const zkp_prover_facts_t& facts,
                                        const std::vector<PluginOption>& options);
  // isolation = process (host/src/isolation/isolated_prover.hpp): a prover table the host
  // implements itself, which forwards to one zkpipe-device process per device. Checked as
  // create() checks a plugin's. `control` lives as long as the table. Throws as create().
  static std::unique_ptr<Prover> adopt(zkp_prover_t* table, isolation::DeviceControl* control);
  ~Prover();
  Prover(const Prover&) = delete;
  Prover& operator=(const Prover&) = delete;

  const std::string& name() const { return name_; }
  // The plugin loaded in this process; null under process isolation (it is loaded in the
  // device processes only).
  const PluginLibrary* library() const { return library_.get(); }
  uint32_t flags() const { return prover_->flags; }
  bool simulated() const { return (flags() & ZKP_PROVER_FLAG_SIMULATED) != 0; }
  bool can_verify() const { return (flags() & ZKP_PROVER_FLAG_VERIFY) != 0; }
  // Whether it was created with the host's facts (create_with_facts), not plain create.
  bool told_facts() const { return told_facts_; }

  uint32_t device_count() const { return device_count_; }

  // Process isolation only (else nothing happens, and 0): the partition watchdog declared a
  // partition on `device` hung, so its device process is killed (and restarted); the
  // restarts so far, every device together.
  void device_hung(uint32_t device, const std::string& reason);
  uint64_t device_restarts() const;
  bool isolated() const { return control_ != nullptr; }
  // Process isolation only (else never called): `hook(device)` runs on the device's keeper
  // thread each time its restarted process serves again; an empty hook stops the calls, and
  // setting one waits for a call in progress (isolated_prover.hpp, DeviceControl).
  void on_device_back(std::function<void(uint32_t device)> hook);

  // Throw zkp::sdk::Error with the prover's message.
  zkp_device_info_t device_info(uint32_t gpu_index) const;
  KeyHandle load_key(const zkp_key_source_t& source, int32_t gpu_index);
  zkp_key_info_t key_info(const zkp_key_t& key) const;

  // The hot path: the outcome is a Status, never an exception.
  Status synthesize(const zkp_key_t& key, const zkp_witness_t& witness, SynthesisHandle& out);
  // zkp_prover_t.synthesize_into, when the table has it (synthesizes_into()); else UNSUPPORTED.
  bool synthesizes_into() const { return synthesizes_into_; }
  Status synthesize_into(const zkp_key_t& key, const zkp_witness_t& witness, std::span<uint8_t> buffer,
                         zkp_synthesized_t& out);
  // On success *op is owned by the prover until prove_finish, which must follow.
  Status prove_start(const zkp_key_t& key, const zkp_prove_input_t& input, int32_t gpu_index,
                     uint32_t worker, zkp_prove_op_t*& op);
  // zkp_prover_t.prove_wait, when the table has it (waits()); else UNSUPPORTED. OK: the op's
  // input is read (the zkp_prover.h contract); prove_finish must follow either way.
  bool waits() const { return waits_; }
  Status prove_wait(zkp_prove_op_t* op);
  Status prove_finish(zkp_prove_op_t* op, zkp_prove_output_t& out);
  // `what` begins the message of a failure to check (the self-check's, or the caller's call).
  Status verify(const zkp_key_t& key, std::span<const uint8_t> proof,
                std::span<const uint8_t> public_inputs, bool& valid,
                const std::string& what = "self-check could not verify the proof") const;

 private:
  struct Destroy {
    void operator()(zkp_prover_t* p) const { p->destroy(p); }
  };

  Prover(std::shared_ptr<PluginLibrary> library, std::unique_ptr<PluginServices> services);
  // The table's checks, then name and device count; `what` names it in errors.
  void take(zkp_prover_t* raw, const std::string& what);

  // Declared first, destroyed last: the code of everything below lives in the library.
  std::shared_ptr<PluginLibrary> library_;
  std::unique_ptr<PluginServices> services_;  // outlives the prover object
  std::unique_ptr<zkp_prover_t, Destroy> prover_;
  std::string name_;
  uint32_t device_count_ = 0;
  bool told_facts_ = false;
  bool synthesizes_into_ = false;  // the table has synthesize_into (a plugin built after it came)
  bool waits_ = false;             // and prove_wait
  isolation::DeviceControl* control_ = nullptr;  // process isolation: owned by prover_'s table

  friend struct KeyFree;
  friend struct SynthesisFree;
};

}  // namespace zkp::host
