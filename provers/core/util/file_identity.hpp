// Which file a path names, and in which version: its canonical path, size and modification
// time. Two loads of one unchanged file agree; a file rewritten since (or a path that now leads
// elsewhere) does not. What the long-running host's key table (host/services/key_table.hpp)
// and the cuda prover's key cache (provers/cuda/prover/cuda_prover.cpp) both key keys by.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace zkp {

struct FileIdentity {
  std::string canonical;  // symlinks and relative parts resolved
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;

  bool operator==(const FileIdentity&) const = default;
  // One string of all three, for a map's key.
  std::string key() const;
};

// nullopt when the path does not resolve to a regular file (the reader reports the real error).
std::optional<FileIdentity> file_identity(const std::string& path);

}  // namespace zkp
