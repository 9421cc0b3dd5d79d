// The host's handle on one pacer object created by a pacer plugin (zkp_pacer.h). Like
// Prover, it keeps the plugin loaded and destroys the object when it goes.
//
// Not thread-safe, by contract: the pacer's calls are [serialized]; the pipeline makes
// every call under its scheduler lock.
#pragma once

#include <zkpipe/host/config.hpp>
#include "host_services.hpp"
#include <zkpipe/host/plugin_library.hpp>
#include <zkpipe/zkp_pacer.h>

#include <memory>
#include <string>
#include <vector>

namespace zkp::host {

class Pacer {
 public:
  // Creates a pacer through the library's "zkp.pacer/1" factory. Throws
  // zkp::sdk::Error: no such factory, a table too small, or the plugin's own error.
  static std::unique_ptr<Pacer> create(std::shared_ptr<PluginLibrary> library,
                                       const zkp_pacer_facts_t& facts,
                                       const std::vector<PluginOption>& options);
  ~Pacer();
  Pacer(const Pacer&) = delete;
  Pacer& operator=(const Pacer&) = delete;

  const std::string& name() const { return name_; }
  const PluginLibrary& library() const { return *library_; }

  void on_event(const zkp_pacer_event_t& event) { pacer_->on_event(pacer_.get(), &event); }
  uint64_t next_admission_ns(const zkp_pipeline_state_t& state) {
    return pacer_->next_admission_ns(pacer_.get(), &state);
  }
  std::string status_line();

 private:
  struct Destroy {
    void operator()(zkp_pacer_t* p) const { p->destroy(p); }
  };

  Pacer(std::shared_ptr<PluginLibrary> library, std::unique_ptr<PluginServices> services);

  std::shared_ptr<PluginLibrary> library_;    // destroyed last
  std::unique_ptr<PluginServices> services_;  // outlives the pacer object
  std::unique_ptr<zkp_pacer_t, Destroy> pacer_;
  std::string name_;
};

}  // namespace zkp::host
