// Where one MSM call's scratch lies in a workspace (cuda/msm/workspace.hpp): the two digit-pair
// buffers (keys and base references, double-buffered for the radix sort; the compacted path
// keeps its flags and selected indices in the second pair before the sort), CUB's scratch and
// the buckets, each 256-byte aligned. Plain host code, so key_load's memory estimate and the
// device code use the same figures.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/msm/plan.hpp"
#include "cuda/msm/sort.hpp"

namespace zkp::cuda::msm {

struct ScratchLayout {
  std::size_t keys[2] = {0, 0};
  std::size_t refs[2] = {0, 0};
  std::size_t sort = 0, sort_bytes = 0;
  std::size_t buckets = 0;
  std::size_t bytes = 0;  // the whole: what the workspace must hold
};

// The layout for `plan` with buckets of bucket_bytes each (an XYZZ point of the curve).
inline ScratchLayout scratch_layout(const Plan& plan, std::size_t bucket_bytes) {
  constexpr std::size_t kAlign = 256;
  ScratchLayout l;
  std::size_t at = 0;
  const auto take = [&at](std::size_t bytes) {
    const std::size_t offset = at;
    at += (bytes + kAlign - 1) / kAlign * kAlign;
    return offset;
  };
  for (int b = 0; b < 2; ++b) {
    l.keys[b] = take(plan.entries * sizeof(std::uint32_t));
    l.refs[b] = take(plan.entries * sizeof(std::uint32_t));
  }
  // The compacted path's select (msm/trivial.cuh) runs before the sort and shares its scratch.
  l.sort_bytes = std::max(sort_scratch_bytes(std::max<std::size_t>(plan.entries, 1), plan.key_bits()),
                          select_scratch_bytes(std::max<std::size_t>(plan.bases, 1)));
  l.sort = take(l.sort_bytes);
  l.buckets = take(plan.buckets() * bucket_bytes);
  l.bytes = at;
  return l;
}

}  // namespace zkp::cuda::msm
