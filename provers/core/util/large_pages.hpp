// Anonymous memory for buffers of megabytes and more (key files, domain vectors, MSM plans),
// backed by transparent huge pages where the kernel gives them.
//
//   void* p = map_large(bytes);   // zeroed, 2 MiB-aligned; nullptr (errno set) on failure
//   ...                           // first touch: one fault per 2 MiB, not per 4 KiB
//   unmap_large(p, bytes);
//
// Why: with 4 KiB pages every first touch of a buffer is a page fault and every unmap tears
// down as many entries. A 2^20 BN254 zkey (495 MB) is 121,000 of each: read from the page cache
// by 2 threads it took 750 ms, and unmapping it 650 ms, on the development machine, against
// 40 and 7 ms with huge pages (session 20, docs/PERF.md). Faults are also where threads of one
// process queue on the kernel's memory locks, so they are serial time a 16-thread proof cannot
// spread. Debian's kernels default to transparent_hugepage=madvise: a buffer gets huge pages
// only if it asks, so this asks (MADV_HUGEPAGE) for every mapping it makes. Best effort: with
// THP off ("never") the memory is ordinary pages and only the speed differs.
#pragma once

#include <cstddef>

namespace zkp {

// Buffers from this size up are worth their own mapping; below it the allocator's free lists
// serve better (a mapping is two system calls and at least one huge page of address space).
inline constexpr std::size_t kLargeBufferBytes = std::size_t{4} << 20;

// Whether allocators (UninitializedAllocator) put large buffers in their own mappings. Not under
// AddressSanitizer: there they stay on the heap, where it checks every access against bounds.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kMapLargeBuffers = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kMapLargeBuffers = false;
#else
inline constexpr bool kMapLargeBuffers = true;
#endif
#else
inline constexpr bool kMapLargeBuffers = true;
#endif

// A read-write private anonymous mapping of at least `bytes` (> 0) bytes, zero-filled, whose
// start is aligned to 2 MiB so that every whole 2 MiB of it can be one huge page (kernels
// before 6.7 do not align large anonymous mappings themselves). Returns nullptr if the mapping
// fails, with errno from mmap. Release it with unmap_large(p, bytes), the same `bytes`.
void* map_large(std::size_t bytes) noexcept;

// Unmaps what map_large(bytes) returned; nullptr is ignored.
void unmap_large(void* p, std::size_t bytes) noexcept;

}  // namespace zkp
