#include "run.hpp"

#include "plugin_loader.hpp"

namespace zkp::pacing_sim {

PacerSpec plugin_pacer(const std::string& name_or_path, const std::string& plugin_dir, const Scenario& s,
                       const std::vector<OptionOverride>& overrides, const std::string& label) {
  auto lib = PluginLibrary::open(pacer_library_path(name_or_path, plugin_dir));
  const std::string name = lib->entry().name;
  PacerSpec spec;
  spec.label = label.empty() ? name : label;
  spec.factory = &lib->pacer_factory();
  spec.options = s.options_for(name);
  for (const auto& o : overrides) {
    if (o.pacer != name && o.pacer != spec.label) continue;
    bool replaced = false;
    for (auto& [k, v] : spec.options) {
      if (k == o.key) {
        v = o.value;
        replaced = true;
      }
    }
    if (!replaced) spec.options.emplace_back(o.key, o.value);
  }
  spec.keepalive = lib;
  return spec;
}

ScenarioRun run_scenario(const Scenario& s, const std::vector<PacerSpec>& pacers) {
  ScenarioRun run;
  run.workload = make_workload(s);
  for (const auto& p : pacers) {
    run.traces.push_back(simulate(s, run.workload, p));
    run.figures.push_back(compute_figures(s, run.workload, run.traces.back()));
  }
  return run;
}

}  // namespace zkp::pacing_sim
