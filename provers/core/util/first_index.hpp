// first_index: the smallest index in [0, n) whose check fails, searched on the thread pool.
//
// The provers' input checks ask this question of millions of rows (a·b = c of a caller's
// synthesis, every constraint of an r1cs) and must name the first bad row, not any bad row, so
// the message is the same whatever the thread count. Each chunk scans its range in order and
// stops at its first failure, or as soon as a smaller failing index is already known.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>

#include "core/util/thread_pool.hpp"

namespace zkp {

// The smallest i < n with fails(i), or nullopt when there is none. `fails` is called
// concurrently from the pool's threads; `grain` is the smallest chunk worth a task.
template <class Fails>
std::optional<std::size_t> first_index(ThreadPool& pool, std::size_t n, std::size_t grain, const Fails& fails) {
  std::atomic<std::size_t> first{n};
  pool.parallel_for(n, grain, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1 && i < first.load(std::memory_order_relaxed); ++i) {
      if (!fails(i)) continue;
      std::size_t cur = first.load();
      while (i < cur && !first.compare_exchange_weak(cur, i)) {
      }
      return;
    }
  });
  const std::size_t f = first.load();
  return f == n ? std::nullopt : std::optional<std::size_t>(f);
}

}  // namespace zkp
