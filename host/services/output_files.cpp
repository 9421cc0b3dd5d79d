#include "output_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <random>
#include <system_error>

namespace zkp::services {

namespace {

namespace fs = std::filesystem;

std::atomic<WriteCall> g_write_call{nullptr};

constexpr int kNameAttempts = 100;

[[noreturn]] void fail(int code, const std::string& what) { throw std::system_error(code, std::generic_category(), what); }

// A new file beside `target`, named ".NAME.RANDOM.tmp"; returns its path and descriptor.
std::string create_beside(const fs::path& target, const char* kind, int* fd) {
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::random_device entropy;
  std::string path;
  *fd = -1;
  for (int attempt = 0; *fd < 0 && attempt < kNameAttempts; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".%08x%08x.%s", entropy(), entropy(), kind);
    std::string name(1, '.');  // (appended, not "." + string: GCC 12's -Wrestrict false positive)
    name.append(target.filename().string()).append(suffix);
    path = (folder / name).string();
    *fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (*fd < 0 && errno != EEXIST) break;
  }
  if (*fd < 0) fail(errno, "cannot create a temporary file in " + folder.string() + " for " + target.string());
  return path;
}

// Writes `bytes` to `fd` and closes it; the errno of the write or close that failed, or 0.
int write_and_close(int fd, const std::string& bytes) {
  const WriteCall call = g_write_call.load();
  const char* p = bytes.data();
  size_t left = bytes.size();
  int failure = 0;
  while (left > 0) {
    const ssize_t n = call != nullptr ? call(fd, p, left) : ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failure = n < 0 ? errno : ENOSPC;
      break;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && failure == 0) failure = errno;
  return failure;
}

// One file on its way in: its temporary, and the hard link that keeps the file it replaces.
struct Staged {
  std::string target;
  std::string temporary;  // "" once renamed
  std::string backup;     // "" when there was no old file (or it could not be linked)
  bool renamed = false;
};

void remove_quietly(const std::string& path) {
  if (!path.empty()) ::unlink(path.c_str());
}

}  // namespace

void set_write_call_for_testing(WriteCall call) { g_write_call.store(call); }

void write_files_together(const std::vector<OutputFile>& files) {
  std::vector<Staged> staged;
  staged.reserve(files.size());
  const auto discard = [&staged] {
    for (const Staged& s : staged) {
      remove_quietly(s.temporary);
      remove_quietly(s.backup);
    }
  };
  // 1. Every file's bytes into its temporary: a full disk, a quota or an I/O error fails here,
  // before any of the outputs changed.
  for (const OutputFile& f : files) {
    int fd = -1;
    std::string temporary;
    try {
      temporary = create_beside(f.path, "tmp", &fd);
    } catch (...) {
      discard();
      throw;
    }
    staged.push_back({f.path, temporary, "", false});
    if (const int failure = write_and_close(fd, f.bytes); failure != 0) {
      discard();
      fail(failure, "cannot write " + temporary + " for " + f.path);
    }
  }
  // 2. Each old file kept by a hard link (no bytes copied) so a failed rename can put it back.
  for (Staged& s : staged) {
    int fd = -1;
    std::string backup;
    try {
      backup = create_beside(s.target, "old", &fd);
    } catch (...) {
      discard();
      throw;
    }
    ::close(fd);
    ::unlink(backup.c_str());
    if (::link(s.target.c_str(), backup.c_str()) == 0) s.backup = backup;  // else: no old file to keep
  }
  // 3. The renames. One that fails undoes those before it.
  for (size_t i = 0; i < staged.size(); ++i) {
    if (::rename(staged[i].temporary.c_str(), staged[i].target.c_str()) == 0) {
      staged[i].temporary.clear();
      staged[i].renamed = true;
      continue;
    }
    const int failure = errno;
    for (size_t j = 0; j < i; ++j) {
      Staged& done = staged[j];
      if (!done.backup.empty()) {
        if (::rename(done.backup.c_str(), done.target.c_str()) == 0) done.backup.clear();
      } else {
        ::unlink(done.target.c_str());
      }
    }
    const std::string what = "cannot rename " + staged[i].temporary + " to " + staged[i].target;
    discard();
    fail(failure, what);
  }
  for (const Staged& s : staged) remove_quietly(s.backup);
}

}  // namespace zkp::services
