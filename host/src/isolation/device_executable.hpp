// Where zkpipe-device is (isolation = process).
#pragma once

#include <string>

namespace zkp::host::isolation {

// `configured` (isolation_executable) when set; else zkpipe-device in the folder of the binary
// this code is linked into (the zkpipe program, a test), then in ../bin beside it (libzkpipe.so
// in lib/ of an install or of the build tree). The first that exists; else the first candidate,
// so the error names where it was looked for.
std::string find_device_executable(const std::string& configured);

}  // namespace zkp::host::isolation
