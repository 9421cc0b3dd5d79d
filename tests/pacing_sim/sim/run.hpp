// One scenario against several pacers: load the plugins, simulate each, compute figures.
#pragma once

#include "engine.hpp"
#include "figures.hpp"
#include "scenario.hpp"
#include "workload.hpp"

#include <string>
#include <utility>
#include <vector>

namespace zkp::pacing_sim {

// An option given on the command line for one pacer: it replaces the scenario's value.
struct OptionOverride {
  std::string pacer;
  std::string key;
  std::string value;
};

// The pacer plugin `name_or_path` (see pacer_library_path) with the scenario's
// pacer.NAME.* options (NAME: the plugin's own name), then the overrides for NAME and for
// `label`. The run is reported under `label`, or NAME when it is empty: one plugin can
// run twice with different options ("pi" and "pi-ref" with kp=0.5).
PacerSpec plugin_pacer(const std::string& name_or_path, const std::string& plugin_dir, const Scenario& s,
                       const std::vector<OptionOverride>& overrides = {}, const std::string& label = {});

struct ScenarioRun {
  Workload workload;
  std::vector<RunTrace> traces;
  std::vector<Figures> figures;
};

ScenarioRun run_scenario(const Scenario& s, const std::vector<PacerSpec>& pacers);

}  // namespace zkp::pacing_sim
