#include "bench/sweep.hpp"

#include "services/command/command.hpp"

#include <charconv>

namespace zkp::cli::bench {

std::vector<uint32_t> parse_list(const std::string& flag, const std::string& text, uint32_t max) {
  std::vector<uint32_t> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, end - begin);
    uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || value < 1 || value > max) {
      throw UsageError(flag + ": '" + item + "' is not a whole number in [1, " + std::to_string(max) +
                       "] (expected a comma-separated list such as 1,2,4)");
    }
    out.push_back(static_cast<uint32_t>(value));
    begin = end + 1;
  }
  return out;
}

std::vector<Point> make_plan(const std::vector<uint32_t>& workers, const std::vector<uint32_t>& synthesis_threads,
                             const std::vector<uint32_t>& in_flight) {
  std::vector<Point> plan;
  for (uint32_t w : workers) {
    for (uint32_t s : synthesis_threads) {
      for (uint32_t f : in_flight) plan.push_back({w, s, f});
    }
  }
  return plan;
}

}  // namespace zkp::cli::bench
