// ZKPIPE_FF_KERNEL and CPUID decide which field kernels a process uses (cpu_features.hpp).
// ctest runs this binary, and the suites named in tests/core/CMakeLists.txt, once as is and
// once with ZKPIPE_FF_KERNEL=portable; the results the other suites check are fixed values,
// so passing under both shows that both paths give the same results.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "core/ff/cpu_features.hpp"

namespace zkp {
namespace {

// Restores ZKPIPE_FF_KERNEL after a test that sets it.
class EnvGuard {
 public:
  EnvGuard() {
    const char* v = std::getenv("ZKPIPE_FF_KERNEL");
    had_ = v != nullptr;
    if (had_) saved_ = v;
  }
  ~EnvGuard() {
    if (had_) setenv("ZKPIPE_FF_KERNEL", saved_.c_str(), 1);
    else unsetenv("ZKPIPE_FF_KERNEL");
  }

 private:
  bool had_ = false;
  std::string saved_;
};

bool same(const mont::CpuKernels& a, const mont::CpuKernels& b) { return a.adx == b.adx && a.ifma == b.ifma; }

TEST(KernelSelectTest, TheProcessUsesWhatTheEnvironmentSelects) {
  const char* env = std::getenv("ZKPIPE_FF_KERNEL");
  const mont::CpuKernels cpu = mont::detect_cpu_kernels();
  if (env != nullptr && std::strcmp(env, "portable") == 0) {
    EXPECT_FALSE(mont::use_adx_kernels());
    EXPECT_FALSE(mont::use_ifma_kernels());
  } else if (env == nullptr) {
    EXPECT_EQ(mont::use_adx_kernels(), cpu.adx);
    EXPECT_EQ(mont::use_ifma_kernels(), cpu.ifma);
  }
  EXPECT_TRUE(same(mont::g_cpu_kernels, mont::selected_cpu_kernels()));
}

TEST(KernelSelectTest, EnvironmentValuesNarrowTheCpuKernels) {
  EnvGuard guard;
  const mont::CpuKernels cpu = mont::detect_cpu_kernels();
  unsetenv("ZKPIPE_FF_KERNEL");
  EXPECT_TRUE(same(mont::selected_cpu_kernels(), cpu));
  setenv("ZKPIPE_FF_KERNEL", "auto", 1);
  EXPECT_TRUE(same(mont::selected_cpu_kernels(), cpu));
  setenv("ZKPIPE_FF_KERNEL", "portable", 1);
  EXPECT_TRUE(same(mont::selected_cpu_kernels(), {}));
  setenv("ZKPIPE_FF_KERNEL", "adx", 1);
  EXPECT_TRUE(same(mont::selected_cpu_kernels(), {cpu.adx, false}));
  setenv("ZKPIPE_FF_KERNEL", "no-such-kernel", 1);
  EXPECT_TRUE(same(mont::selected_cpu_kernels(), cpu));
}

// IFMA implies the rest of AVX-512F here, and the CPUs that have it all have BMI2 + ADX.
TEST(KernelSelectTest, DetectionIsConsistent) {
  const mont::CpuKernels cpu = mont::detect_cpu_kernels();
  if (cpu.ifma) {
    EXPECT_TRUE(cpu.adx);
  }
  EXPECT_TRUE(same(cpu, mont::detect_cpu_kernels()));
}

}  // namespace
}  // namespace zkp
