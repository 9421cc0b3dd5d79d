// map_large / unmap_large and UninitializedAllocator's use of them: aligned, zeroed, writable
// mappings that ask for transparent huge pages, and vectors that keep their contents across
// the size where they move from the heap to a mapping.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/util/large_pages.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp {
namespace {

constexpr std::size_t kTwoMiB = std::size_t{2} << 20;

bool two_mib_aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kTwoMiB == 0; }

// The VmFlags line of the /proc/self/smaps entry that holds `p` ("" if none is found).
std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= addr && addr < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(MapLarge, AlignedZeroedAndWritableAtEverySize) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096}, kTwoMiB - 1, kTwoMiB, kTwoMiB + 1,
                                   std::size_t{9} * kTwoMiB + 3}) {
    SCOPED_TRACE(bytes);
    auto* p = static_cast<unsigned char*>(map_large(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(two_mib_aligned(p));
    EXPECT_EQ(p[0], 0);
    EXPECT_EQ(p[bytes / 2], 0);
    EXPECT_EQ(p[bytes - 1], 0);
    std::memset(p, 0xA5, bytes);
    EXPECT_EQ(p[bytes - 1], 0xA5);
    unmap_large(p, bytes);
  }
}

TEST(MapLarge, NothingToMapOrUnmap) {
  EXPECT_EQ(map_large(0), nullptr);
  unmap_large(nullptr, 123);  // ignored
}

TEST(MapLarge, AsksForTransparentHugePages) {
  if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage")) {
    GTEST_SKIP() << "SKIPPED: this kernel has no transparent huge pages (no /sys/kernel/mm/transparent_hugepage), "
                    "so madvise(MADV_HUGEPAGE) is refused and there is nothing to check";
  }
  const std::size_t bytes = 3 * kTwoMiB;
  void* p = map_large(bytes);
  ASSERT_NE(p, nullptr);
  const std::string flags = vm_flags_of(p);
  unmap_large(p, bytes);
  ASSERT_FALSE(flags.empty()) << "no /proc/self/smaps entry holds the mapping";
  // "hg": the mapping was advised MADV_HUGEPAGE.
  EXPECT_NE((flags + " ").find(" hg "), std::string::npos) << flags;
}

TEST(UninitializedAllocator, LargeVectorsAreMappingsAndKeepTheirContents) {
  UninitializedVector<std::uint64_t> v;
  // Grow across kLargeBufferBytes one element at a time: every reallocation moves from the heap
  // to a mapping, or between mappings, and must carry every element.
  const std::size_t n = 2 * kLargeBufferBytes / sizeof(std::uint64_t) + 7;
  for (std::size_t i = 0; i < n; ++i) v.push_back(i * 0x9E3779B97F4A7C15ull);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], i * 0x9E3779B97F4A7C15ull) << i;
  if (kMapLargeBuffers) {
    EXPECT_TRUE(two_mib_aligned(v.data()));
  }
  v.resize(10);
  v.shrink_to_fit();
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i * 0x9E3779B97F4A7C15ull) << i;
}

TEST(UninitializedAllocator, RefusesImpossibleSizes) {
  UninitializedAllocator<std::uint64_t> a;
  EXPECT_THROW((void)a.allocate(SIZE_MAX / 4), std::bad_array_new_length);
}

}  // namespace
}  // namespace zkp
