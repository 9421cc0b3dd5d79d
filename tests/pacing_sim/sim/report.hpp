// The figures of several pacers on one scenario, side by side, as a text or Markdown table.
#pragma once

#include "figures.hpp"
#include "scenario.hpp"

#include <string>
#include <vector>

namespace zkp::pacing_sim {

std::string format_report(const Scenario& s, const std::vector<Figures>& figures, bool markdown);

// A figure for a table cell: NaN is "n/a" (not applicable), infinity is "never".
std::string format_value(double v, int decimals);

}  // namespace zkp::pacing_sim
