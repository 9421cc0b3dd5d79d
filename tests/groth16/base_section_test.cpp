// BaseSection: an unaligned section of MSM bases is copied into aligned memory, and each block
// of the original is handed to give_back as soon as it is copied, so that a key being loaded is
// never resident twice (ProvingKey gives the blocks back to the OS); an aligned one is used in
// place and nothing is given back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "core/groth16/proving_key.hpp"
#include "core/pairing/bn254.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::groth16 {
namespace {

using Section = BaseSection<bn254::G1>;
constexpr std::size_t kBaseBytes = sizeof(msm::Base<bn254::G1>);

// The (offset, size) ranges given back, sorted.
struct GivenBack {
  std::mutex mu;
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
};

std::vector<std::byte> pattern(std::size_t n) {
  std::vector<std::byte> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>((i * 31 + 7) % 251);
  return out;
}

void expect_copied_and_given_back(ThreadPool* pool) {
  constexpr std::size_t kBases = Section::kGiveBackBases * 7 / 2;  // three blocks and a half
  const std::vector<std::byte> buffer = pattern(8 + kBases * kBaseBytes);
  const ByteView bytes(buffer.data() + 4, kBases * kBaseBytes);  // 4 bytes in: unaligned
  GivenBack given;
  const Section section(bytes, pool, [&](ByteView part) {
    std::lock_guard lock(given.mu);
    given.ranges.emplace_back(static_cast<std::size_t>(part.data() - bytes.data()), part.size());
  });
  ASSERT_EQ(section.copied_bytes(), bytes.size());
  ASSERT_EQ(section.bases().size(), kBases);
  EXPECT_EQ(std::memcmp(section.bases().data(), bytes.data(), bytes.size()), 0);
  // Given back block by block (not once at the end), every byte exactly once.
  std::sort(given.ranges.begin(), given.ranges.end());
  EXPECT_GE(given.ranges.size(), 4u);
  std::size_t next = 0;
  for (const auto& [offset, size] : given.ranges) {
    EXPECT_EQ(offset, next);
    EXPECT_LE(size, Section::kGiveBackBases * kBaseBytes);
    next = offset + size;
  }
  EXPECT_EQ(next, bytes.size());
}

TEST(BaseSection, AnUnalignedSectionIsCopiedAndGivenBackBlockByBlock) {
  expect_copied_and_given_back(nullptr);
  ThreadPool pool(2);
  expect_copied_and_given_back(&pool);
}

TEST(BaseSection, AnAlignedSectionIsUsedInPlaceAndNotGivenBack) {
  std::vector<msm::Base<bn254::G1>> bases(3);
  std::memset(static_cast<void*>(bases.data()), 1, bases.size() * kBaseBytes);
  const ByteView bytes(reinterpret_cast<const std::byte*>(bases.data()), bases.size() * kBaseBytes);
  bool called = false;
  const Section section(bytes, nullptr, [&](ByteView) { called = true; });
  EXPECT_EQ(section.copied_bytes(), 0u);
  EXPECT_EQ(static_cast<const void*>(section.bases().data()), static_cast<const void*>(bases.data()));
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace zkp::groth16
