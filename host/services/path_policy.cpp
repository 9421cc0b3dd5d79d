#include "services/path_policy.hpp"

#include <zkpipe/sdk/error.hpp>

#include <system_error>

namespace zkp::services {

namespace fs = std::filesystem;

PathPolicy::PathPolicy(const std::vector<std::string>& folders) {
  for (const std::string& f : folders) {
    std::error_code ec;
    const fs::path canonical = fs::canonical(f, ec);
    if (ec || !fs::is_directory(canonical, ec)) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "key folder '" + f + "' is not a directory" +
                                                     (ec ? " (" + ec.message() + ")" : std::string()));
    }
    folders_.push_back(canonical);
  }
}

namespace {

// Whether `path` is `folder` or below it; both canonical, so a component comparison suffices
// ("/keys2/x" is not inside "/keys").
bool inside(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> PathPolicy::admit(const std::string& requested) const {
  if (requested.empty() || requested.find('\0') != std::string::npos) return std::nullopt;
  std::error_code ec;
  if (!restricted()) {
    const fs::path absolute = fs::absolute(requested, ec);
    if (ec) return std::nullopt;
    return absolute.string();
  }
  const fs::path resolved = fs::weakly_canonical(fs::absolute(requested, ec), ec);
  if (ec) return std::nullopt;
  for (const fs::path& folder : folders_) {
    if (inside(resolved, folder) && resolved != folder) return resolved.string();
  }
  return std::nullopt;
}

std::string PathPolicy::describe() const {
  std::string out = "serve.key_dirs (";
  for (size_t i = 0; i < folders_.size(); ++i) out += (i > 0 ? ", " : "") + folders_[i].string();
  return out + ")";
}

}  // namespace zkp::services
