#include "core/util/file_identity.hpp"

#include <chrono>
#include <filesystem>

namespace zkp {

std::string FileIdentity::key() const {
  return canonical + "|" + std::to_string(size) + "|" + std::to_string(mtime_ns);
}

std::optional<FileIdentity> file_identity(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  FileIdentity id;
  const fs::path canonical = fs::canonical(path, ec);
  if (ec || !fs::is_regular_file(canonical, ec)) return std::nullopt;
  id.canonical = canonical.string();
  id.size = fs::file_size(canonical, ec);
  if (ec) return std::nullopt;
  const auto mtime = fs::last_write_time(canonical, ec);
  if (ec) return std::nullopt;
  id.mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  return id;
}

}  // namespace zkp
