// Pinned host memory (cuda/util/pinned_memory.hpp) on the GPU: a round trip through the device,
// and the pages still the device's after the process forks, which is what MADV_DONTFORK is for
// (isolation = process spawns children from a process whose staging is registered). Kernels that
// copy DMA-pinned pages at fork time keep the parent's pages without it too; this checks the
// property the prover relies on, whichever of the two provides it.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "cuda/util/buffers.hpp"
#include "cuda/util/stream.hpp"
#include "device_test_support.hpp"

namespace zkp::cuda::test {
namespace {

class PinnedMemory : public DeviceTest {};

// Fills `pinned` with a pattern of `seed`, copies it to the device and back into `back`.
void round_trip(PinnedBuffer<std::uint32_t>& pinned, PinnedBuffer<std::uint32_t>& back, std::uint32_t seed) {
  std::iota(pinned.data(), pinned.data() + pinned.size(), seed);
  DeviceBuffer<std::uint32_t> dev(pinned.size());
  Stream stream;
  dev.upload(std::span<const std::uint32_t>(pinned.data(), pinned.size()), stream.get());
  dev.download(std::span<std::uint32_t>(back.data(), back.size()), stream.get());
  stream.synchronize();
}

TEST_F(PinnedMemory, ZeroFilledAndCopiedBothWays) {
  DeviceGuard guard(kTestGpu);
  const std::size_t n = std::size_t{96} << 18;  // 96 MiB: touched on several threads
  PinnedBuffer<std::uint32_t> pinned(n), back(n);
  ASSERT_EQ(std::count(pinned.data(), pinned.data() + n, 0u), static_cast<std::ptrdiff_t>(n));
  round_trip(pinned, back, 7);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(back.data()[i], static_cast<std::uint32_t>(7 + i)) << i;
  ASSERT_EQ(back.data()[n - 1], static_cast<std::uint32_t>(7 + n - 1));
}

TEST_F(PinnedMemory, AForkedChildLeavesThePagesToTheParentsCopies) {
  DeviceGuard guard(kTestGpu);
  const std::size_t n = std::size_t{1} << 20;
  PinnedBuffer<std::uint32_t> pinned(n), back(n);
  round_trip(pinned, back, 1);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);  // the pages were not shared with it (MADV_DONTFORK)
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  // Written after the fork: a copy-on-write share would have moved the parent to new pages
  // while the device still read the old ones.
  round_trip(pinned, back, 1000);
  for (std::size_t i = 0; i < n; i += 997) ASSERT_EQ(back.data()[i], static_cast<std::uint32_t>(1000 + i)) << i;
}

}  // namespace
}  // namespace zkp::cuda::test
