// parallel_for for the MSM: hands task indices 0..tasks−1 to `threads` threads (the caller
// is one of them) through an atomic counter, so uneven tasks balance themselves.
//
// Threads are started per call: an MSM runs for milliseconds to seconds, and starting a
// thread costs tens of microseconds. The body learns which worker runs it (0..threads−1)
// so that it can reuse per-worker scratch memory without locking.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace zkp::msm {

// Calls body(task, worker) for every task in [0, tasks). Returns when all have returned;
// if any throws, the first exception is rethrown here after the others finish (tasks not yet
// started are skipped).
template <class Body>
void parallel_for(std::size_t threads, std::size_t tasks, Body&& body) {
  const std::size_t workers = std::max<std::size_t>(1, std::min(threads, tasks));
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
  {
    std::vector<std::jthread> pool;
    pool.reserve(workers - 1);
    for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(drain, w);
    drain(0);
  }  // jthreads join here
  if (error) std::rethrow_exception(error);
}

}  // namespace zkp::msm
