// Which files a remote caller may name: a `zkpipe serve` client's LoadKey path, and an Enqueue's
// key and witness paths, which the fleet's workers then open. Without this, a token holder could
// probe the server's files (does /root/x exist, how large is it, where does a symlink point) and
// read their first bytes back from the error message.
//
// The operator lists the folders (serve.key_dirs). A path is admitted when, with `..` and every
// symlink resolved (std::filesystem::weakly_canonical), it lies inside one of them. The answer for
// a path outside is the same whatever is there: missing, a directory, unreadable, a symlink to a
// key folder's file from elsewhere; nothing is opened or stat-ed beyond what resolving the path
// needs. Inside the folders, a missing or malformed file is reported as usual.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace zkp::services {

class PathPolicy {
 public:
  // No folders: nothing is restricted (restricted() is false; admit() admits every path, made
  // absolute). Each folder must exist and be a directory: else sdk::Error
  // (ZKP_ERR_INVALID_ARGUMENT) naming it, so that a typo fails at start, not at the first call.
  explicit PathPolicy(const std::vector<std::string>& folders = {});

  bool restricted() const { return !folders_.empty(); }
  const std::vector<std::filesystem::path>& folders() const { return folders_; }

  // The path resolved, when it may be opened; nullopt when it lies outside every folder (or
  // cannot be resolved). A relative path is taken from the server's working directory.
  std::optional<std::string> admit(const std::string& requested) const;

  // "serve.key_dirs (/a, /b)": how refusals name the setting.
  std::string describe() const;

 private:
  std::vector<std::filesystem::path> folders_;  // canonical
};

}  // namespace zkp::services
