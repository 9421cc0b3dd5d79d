#include "isolation/device_executable.hpp"

#include <boost/dll/runtime_symbol_info.hpp>

#include <filesystem>

namespace zkp::host::isolation {

namespace fs = std::filesystem;

std::string find_device_executable(const std::string& configured) {
  if (!configured.empty()) return configured;
  boost::dll::fs::error_code ec;
  const fs::path own = boost::dll::this_line_location(ec).parent_path();
  if (ec || own.empty()) return "zkpipe-device";
  const fs::path candidates[] = {own / "zkpipe-device", (own / ".." / "bin" / "zkpipe-device").lexically_normal()};
  for (const fs::path& c : candidates) {
    std::error_code exists_ec;
    if (fs::exists(c, exists_ec)) return c.string();
  }
  return candidates[0].string();
}

}  // namespace zkp::host::isolation
