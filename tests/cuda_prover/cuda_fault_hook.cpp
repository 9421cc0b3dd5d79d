// libzkp_test_cuda_fault_hook.so (tests only): the `faulty` test prover's fault=hook calls
// zkp_test_fault_hook(device) in the process that is about to prove, here a zkpipe-device child
// of isolation = process. It breaks that device's CUDA context the way a bad kernel does
// (fault_injection.hpp), so the cuda prover the faulty plugin wraps meets a real sticky fault
// in the child, and the host has to restart the child to get the device back.
#include <cstdint>

#include "fault_injection.hpp"

extern "C" __attribute__((visibility("default"))) int zkp_test_fault_hook(int32_t device) {
  return zkp::test::break_device(device).empty() ? 1 : 0;
}
