// zkpipe-pacing-sim: runs pacer plugins through pacing scenarios in virtual time and prints
// the figures PACING.md judges a pacer by, side by side. Deterministic: the same scenario,
// seed and plugins give the same output on every run and machine.
#include "doubles/synthesis_capped_pacer.hpp"
#include "pi_config.hpp"
#include "sim/acceptance.hpp"
#include "sim/plugin_loader.hpp"
#include "sim/report.hpp"
#include "sim/run.hpp"
#include "sim/timeline.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace zkp::pacing_sim;

constexpr int kExitInvariant = 1;
constexpr int kExitUsage = 2;
constexpr double kTimelinePoints = 1000;

const char* const kUsage =
    "usage: zkpipe-pacing-sim [options] SCENARIO.conf...\n"
    "  --plugin-dir DIR     where libzkp_pacer_NAME.so are (default: <this program>/../lib/zkpipe\n"
    "                       when installed, else <this program>/../lib)\n"
    "  --pacers A,B,...     pacer names or .so paths (default: the scenario's `pacers`);\n"
    "                       NAME:LABEL runs NAME reported as LABEL (one plugin, two\n"
    "                       configurations); `synthesis-cap-double` is the test double\n"
    "                       of PACING.md failure 4\n"
    "  --set PACER.KEY=VAL  a pacer option (PACER: a name or a label), over the\n"
    "                       scenario's pacer.NAME.KEY\n"
    "  --timeline-dir DIR   write DIR/<scenario>.csv and DIR/<scenario>.svg\n"
    "  --markdown           print Markdown tables\n"
    "  --check              exit 1 if a run breaks an invariant (memory over budget, a\n"
    "                       partition never admitted or never completed, a collapse)\n"
    "  --log PACER          print PACER's log lines (its status lines) to stderr\n"
    "  --acceptance         instead of the figures, one table of issue 11's acceptance\n"
    "                       criteria: every pacer but greedy and fixed against greedy\n"
    "                       (sim/acceptance.hpp), over all the scenarios given\n";

struct Cli {
  std::string plugin_dir = default_plugin_dir();
  std::vector<std::string> pacers;
  std::vector<OptionOverride> overrides;
  std::string timeline_dir;
  bool markdown = false;
  bool check = false;
  bool acceptance = false;
  std::string log_pacer;
  std::vector<std::string> scenarios;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    const std::string part = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Cli parse_cli(int argc, char** argv) {
  Cli cli;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--plugin-dir") {
      cli.plugin_dir = value();
    } else if (a == "--pacers") {
      cli.pacers = split_commas(value());
    } else if (a == "--set") {
      const std::string v = value();
      const auto dot = v.find('.');
      const auto eq = v.find('=');
      if (dot == std::string::npos || eq == std::string::npos || dot > eq) {
        throw std::invalid_argument("--set wants PACER.KEY=VALUE, got '" + v + "'");
      }
      cli.overrides.push_back({v.substr(0, dot), v.substr(dot + 1, eq - dot - 1), v.substr(eq + 1)});
    } else if (a == "--timeline-dir") {
      cli.timeline_dir = value();
    } else if (a == "--markdown") {
      cli.markdown = true;
    } else if (a == "--check") {
      cli.check = true;
    } else if (a == "--acceptance") {
      cli.acceptance = true;
    } else if (a == "--log") {
      cli.log_pacer = value();
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (!a.empty() && a[0] == '-') {
      throw std::invalid_argument("unknown option " + a);
    } else {
      cli.scenarios.push_back(a);
    }
  }
  if (cli.scenarios.empty()) throw std::invalid_argument("no scenario file");
  return cli;
}

const char* const kSynthesisCapDouble = "synthesis-cap-double";

// The test double runs with pi's options from the scenario and the command line.
PacerSpec synthesis_cap_double(const Scenario& s, const std::vector<OptionOverride>& overrides) {
  PacerSpec spec;
  spec.label = kSynthesisCapDouble;
  spec.factory = &synthesis_capped_pacer_factory();
  spec.options = s.options_for("pi");
  for (const auto& o : overrides) {
    if (o.pacer == kSynthesisCapDouble || o.pacer == "pi") spec.options.emplace_back(o.key, o.value);
  }
  return spec;
}

// The queue depth the pi pacer of this run steers to, for the chart's reference line.
double pi_target(const std::vector<PacerSpec>& specs) {
  for (const auto& spec : specs) {
    if (spec.label != "pi") continue;
    for (const auto& [k, v] : spec.options) {
      if (k == "target_waiting") return std::stod(v);
    }
    return zkp::pacing::PiConfig{}.target_waiting;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli;
  try {
    cli = parse_cli(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "zkpipe-pacing-sim: " << e.what() << "\n" << kUsage;
    return kExitUsage;
  }
  int status = 0;
  std::vector<Acceptance> accepted;
  try {
    for (const auto& path : cli.scenarios) {
      const Scenario s = load_scenario(path);
      std::vector<PacerSpec> specs;
      for (const auto& entry : cli.pacers.empty() ? s.pacers : cli.pacers) {
        const auto colon = entry.find(':');
        const std::string name = entry.substr(0, colon);
        const std::string label = colon == std::string::npos ? "" : entry.substr(colon + 1);
        specs.push_back(name == kSynthesisCapDouble ? synthesis_cap_double(s, cli.overrides)
                                                    : plugin_pacer(name, cli.plugin_dir, s, cli.overrides, label));
      }
      const ScenarioRun run = run_scenario(s, specs);
      if (cli.acceptance) {
        const Figures* greedy = nullptr;
        for (const auto& f : run.figures) greedy = f.pacer == "greedy" ? &f : greedy;
        if (greedy == nullptr) throw std::invalid_argument("--acceptance needs greedy among the pacers");
        for (const auto& f : run.figures) {
          if (f.pacer != "greedy" && f.pacer != "fixed") accepted.push_back(judge(s, run.workload, f, *greedy));
        }
      } else {
        std::cout << format_report(s, run.figures, cli.markdown) << "\n";
      }
      for (const auto& tr : run.traces) {
        if (tr.pacer != cli.log_pacer) continue;
        for (const auto& line : tr.log) std::cerr << tr.pacer << " " << line << "\n";
        std::cerr << tr.pacer << " final: " << tr.final_status << "\n";
      }
      if (!cli.timeline_dir.empty()) {
        std::filesystem::create_directories(cli.timeline_dir);
        double end_s = 0.0;
        for (const auto& tr : run.traces) end_s = std::max(end_s, static_cast<double>(tr.end_ns) / kNsPerS);
        const double bin = bin_width(end_s, kTimelinePoints);
        std::vector<Timeline> timelines;
        for (const auto& tr : run.traces) timelines.push_back(make_timeline(s, tr, bin, end_s));
        const std::string stem = std::filesystem::path(path).stem().string();
        std::ofstream csv(std::filesystem::path(cli.timeline_dir) / (stem + ".csv"));
        write_csv(csv, timelines);
        std::ofstream svg(std::filesystem::path(cli.timeline_dir) / (stem + ".svg"));
        write_svg(svg, s, timelines, pi_target(specs));
      }
      if (cli.check) {
        for (const auto& f : run.figures) {
          for (const auto& broken : check_invariants(s, f)) {
            std::cerr << "INVARIANT BROKEN: " << broken << "\n";
            status = kExitInvariant;
          }
        }
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "zkpipe-pacing-sim: " << e.what() << "\n";
    return kExitUsage;
  }
  if (cli.acceptance) std::cout << format_acceptance(accepted, cli.markdown);
  return status;
}
