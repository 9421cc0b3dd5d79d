// UninitializedAllocator<T>: a std::allocator whose vectors leave new elements unconstructed,
// for buffers of tens of GiB that the next step overwrites whole, in parallel.
//
//   std::vector<Base, UninitializedAllocator<Base>> bases(n);  // no zero-fill
//   decode_query(raw, bases, ...);                              // every element written
//
// std::vector<T>(n) value-initializes: one thread writing n elements before anyone else may,
// and touching every page for the first time (at a 2^27 PoRep partition's 44 GiB of bases, the
// serial fill costs seconds of key_load that the parallel decode after it then repeats). Here
// the first write, and so the page faults, happen in the parallel pass. Only for T that are
// implicit-lifetime (aggregates of field limbs, scalars): the allocation creates them, and the
// caller must write every element before reading it. Buffers of kLargeBufferBytes and more are
// their own mapping with huge pages (large_pages.hpp), so that parallel first write is one fault
// per 2 MiB rather than per 4 KiB, and freeing them is as cheap (except under AddressSanitizer,
// which checks them on the heap).
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/util/large_pages.hpp"

namespace zkp {

template <class T>
class UninitializedAllocator : public std::allocator<T> {
 public:
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "only for plain data that the caller overwrites");
  using value_type = T;
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };

  UninitializedAllocator() noexcept = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    if (!is_large(n)) return std::allocator<T>::allocate(n);
    void* p = map_large(n * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (is_large(n)) {
      unmap_large(p, n * sizeof(T));
    } else {
      std::allocator<T>::deallocate(p, n);
    }
  }

  // resize(n) and vector(n): nothing written. Any other construction is the usual one.
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

 private:
  static bool is_large(std::size_t n) noexcept { return kMapLargeBuffers && n >= kLargeBufferBytes / sizeof(T); }
};

template <class T, class U>
bool operator==(const UninitializedAllocator<T>&, const UninitializedAllocator<U>&) noexcept {
  return true;
}

// The vector such buffers are held in.
template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace zkp
