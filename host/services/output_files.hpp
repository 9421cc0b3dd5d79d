// Output files that belong together (proof.json and public.json, and bellperson's proof bytes
// beside them): written so that all of them change or none does. A proof beside the public
// signals of another proof verifies against nothing, and a script cannot tell.
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>

namespace zkp::services {

struct OutputFile {
  std::string path;
  std::string bytes;
};

// Writes every file: each into a new temporary file in its own folder first (O_CREAT|O_EXCL, a
// random name, so a symlink planted at a fixed name such as OUT.tmp is never written through),
// and only once every one is written (a full disk fails here, changing nothing) are they
// renamed over their paths; should a rename fail, the files already renamed are put back as
// they were (an old file is kept by a hard link until all are in). Throws std::system_error
// whose what() ends with strerror of the failure: "cannot write DIR/.proof.json.XXXX.tmp for
// proof.json: No space left on device".
void write_files_together(const std::vector<OutputFile>& files);

// For tests: the write(2) the files' bytes go through (nullptr: write(2) itself), so a test can
// fail one with ENOSPC without filling a disk.
using WriteCall = ssize_t (*)(int fd, const void* data, size_t size);
void set_write_call_for_testing(WriteCall call);

}  // namespace zkp::services
