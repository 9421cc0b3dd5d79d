// parallel_for for the MSM: hands task indices 0..tasks−1 to its workers (the caller is one of
// them) through an atomic counter, so uneven tasks balance themselves. The body learns which
// worker runs it (0..workers−1) so that it can reuse per-worker scratch memory without locking.
//
// The workers are a ThreadPool's, when one is given (a prover's pool: its MSMs and its other
// loops share the cores, and concurrent callers take turns), else `threads` threads started
// for this call (an MSM runs for milliseconds to seconds; a thread start costs tens of µs).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/util/thread_pool.hpp"

namespace zkp::msm {

// Calls body(task, worker) for every task in [0, tasks). Returns when all have returned;
// if any throws, the first exception is rethrown here after the others finish (tasks not yet
// started are skipped).
template <class Body>
void parallel_for(ThreadPool* pool, std::size_t threads, std::size_t tasks, Body&& body) {
  const std::size_t workers = std::max<std::size_t>(1, std::min(pool != nullptr ? pool->size() : threads, tasks));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto drain = [&](std::size_t worker) {
    for (std::size_t t; !failed.load(std::memory_order_relaxed) && (t = next.fetch_add(1)) < tasks;) {
      try {
        body(t, worker);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  if (pool != nullptr) {
    // One pool task per worker: each runs drain with its own index (drain never throws).
    pool->run(workers, [&](std::size_t w) { drain(w); });
  } else {
    std::vector<std::jthread> started;
    started.reserve(workers - 1);
    for (std::size_t w = 1; w < workers; ++w) started.emplace_back(drain, w);
    drain(0);
  }  // jthreads join here
  if (error) std::rethrow_exception(error);
}

}  // namespace zkp::msm
