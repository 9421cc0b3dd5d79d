// The `pi` pacer as an SDK class: the C ABI side of PiController. It turns pipeline events
// into controller calls, answers next_admission_ns with the time remaining until the
// controller's next admission, and logs a status line every few admissions.
#pragma once

#include "pi_config.hpp"
#include "pi_controller.hpp"

#include <zkpipe/sdk/pacer.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace zkp::pacing {

class PiPacer final : public zkp::sdk::Pacer {
 public:
  static constexpr const char* kName = "pi";
  static const zkp::sdk::OptionTable<PiConfig>& option_table() { return pi_option_table(); }

  PiPacer(const zkp::sdk::HostServices& host, const zkp_pacer_facts_t& facts, zkp::sdk::Options& options);

  void on_event(const zkp_pacer_event_t& event) override;
  uint64_t next_admission_ns(const zkp_pipeline_state_t& state) override;
  std::string status_line() override;

  const PiController& controller() const { return controller_; }

 private:
  // The controller's sample of `state`, with the cold-start cohort's oldest admission.
  PipelineSample sample(const zkp_pipeline_state_t& state) const;

  zkp::sdk::HostServices host_;
  PiController controller_;
  zkp_pipeline_state_t last_{};
  // The cold-start cohort (admitted before the first GPU completion) still synthesizing:
  // (job, partition) -> admission time.
  std::map<std::pair<uint64_t, uint32_t>, uint64_t> cohort_;
};

// The controller's view of a pipeline snapshot.
PipelineSample to_sample(const zkp_pipeline_state_t& state);

// All GPU workers of the facts (device_count x workers_per_device); throws
// zkp::sdk::Error(ZKP_ERR_INVALID_ARGUMENT) naming `owner` when there are none.
uint32_t gpu_workers(const zkp_pacer_facts_t& facts, const std::string& owner);

// The status line of `controller`, given the last pipeline snapshot it saw.
std::string pi_status_line(const char* name, const PiController& controller, const zkp_pipeline_state_t& last);

}  // namespace zkp::pacing
