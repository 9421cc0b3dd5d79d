// What every GPU test in tests/cuda starts with: a fixture that skips the test, with the
// runtime's reason, when no CUDA device is usable. A GPU test must never pass without a
// GPU, so nothing here returns success by default.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

#include "cuda/util/device_guard.hpp"

namespace zkp::cuda::test {

// Empty when a device is usable, else why not.
inline std::string no_device_reason() {
  cudaError_t error = cudaSuccess;
  const int n = device_count(&error);
  if (error != cudaSuccess) return std::string("no CUDA device: ") + cudaGetErrorString(error);
  if (n == 0) return "no CUDA device: cudaGetDeviceCount found 0 devices";
  return {};
}

// The GPU the tests run on: the first one.
inline constexpr int kTestGpu = 0;

class DeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = no_device_reason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

}  // namespace zkp::cuda::test
