// The checks a caller's Montgomery-form synthesis needs, run on the device after its upload
// instead of on the host before it: every value below r, the assignment to standard form (the
// MSM scalars), and a·b = c on every row. At a 2^27 PoRep partition the host's version read
// 16 GiB twice and cost 3.5 s of 16 cores per proof, more than the proof's device time; here
// it is one pass over memory the proof uploads anyway.
//
// Results are first bad indices, written with atomicMin into device words the caller set to
// kNoIndex (all ones) beforehand; the caller copies them back with the proof's other results
// and reports the smallest, in the words the host checks use (core/backend/external_input.hpp).
// A value found not below r is replaced by zero, so that nothing downstream (an MSM's digits,
// which assume 255-bit scalars) ever reads it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace zkp::cuda {

inline constexpr std::uint64_t kNoIndex = ~std::uint64_t{0};

// Where check_rows writes: the first a, b, c value not below r, and the first row a·b ≠ c.
struct RowCheckIndices {
  enum : std::size_t { a = 0, b = 1, c = 2, row = 3, count = 4 };
};

// `count` Montgomery-form scalars of Fr at `data` (device) → standard form, in place, queued on
// `stream`; *first_bad ← the smallest index whose value is not below r (that value ← 0).
template <class Fr>
void montgomery_to_standard_checked(Fr* data, std::size_t count, std::uint64_t* first_bad, cudaStream_t stream);

// a, b, c (device, Montgomery form, `count` each), queued on `stream`: first_bad[RowCheckIndices::a
// .. ::c] ← the first value of each not below r (each ← 0), first_bad[::row] ← the first row whose
// a·b ≠ c among rows whose values are all below r.
template <class Fr>
void check_rows(Fr* a, Fr* b, Fr* c, std::size_t count, std::uint64_t* first_bad, cudaStream_t stream);

}  // namespace zkp::cuda
