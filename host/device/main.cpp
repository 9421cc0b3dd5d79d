// zkpipe-device: one device of a prover plugin in a process of its own (isolation = process).
// Started by the host, never by hand: `zkpipe-device --socket FD`, FD one end of a unix
// socketpair (host/src/isolation/device_process.hpp). A crash here fails only this device's
// partitions in flight; the host restarts the process.
#include "device_server.hpp"

#include <sys/prctl.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "--socket") != 0) {
    std::fprintf(stderr, "usage: zkpipe-device --socket FD\n(started by the zkpipe host for isolation = process)\n");
    return 2;
  }
  // Die with the host: a device process never outlives the process that feeds it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  try {
    return zkp::device::serve(std::stoi(argv[2]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zkpipe-device: %s\n", e.what());
    return 1;
  }
}
