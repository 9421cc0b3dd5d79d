#include "core/util/large_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace zkp {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t round_up(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

}  // namespace

void* map_large(std::size_t bytes) noexcept {
  if (bytes == 0) return nullptr;
  const std::size_t size = round_up(bytes);
  if (size < bytes) return nullptr;  // overflow: no such mapping exists anyway
  // Map one huge page more than needed and cut the unaligned head and tail off.
  void* raw = ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (base + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > base) ::munmap(raw, aligned - base);
  const std::uintptr_t end = base + size + kHugePage;
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  void* p = reinterpret_cast<void*>(aligned);
  ::madvise(p, size, MADV_HUGEPAGE);  // best effort: EINVAL where THP is compiled out
  return p;
}

void unmap_large(void* p, std::size_t bytes) noexcept {
  if (p != nullptr && bytes != 0) ::munmap(p, round_up(bytes));
}

}  // namespace zkp
