// A fixed set of worker threads for the data-parallel loops of the prover (NTT butterflies,
// synthesis rows, coset scaling). Fork-join only: run() hands out task indices and returns
// when every task has finished; the calling thread works too, so ThreadPool(1) spawns nothing
// and runs everything inline.
//
// run() may be called from several threads at once (two host workers sharing a pool): the
// calls take turns. A run() from inside a task of the same pool runs its tasks inline on that
// thread instead of deadlocking.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace zkp {

class ThreadPool {
 public:
  // `threads` counts the caller: threads − 1 workers are started. 0 means every hardware thread.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Threads that run tasks, the caller included.
  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls task(i) for every i in [0, count), spread over the pool, and returns when all have
  // returned. If tasks throw, the first exception is rethrown here after the others finish.
  void run(std::size_t count, const std::function<void(std::size_t)>& task);

  // Splits [0, n) into about `chunks_per_thread` · size() contiguous ranges of at least `grain`
  // items and calls body(begin, end) for each, in parallel.
  void parallel_for(std::size_t n, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body,
                    std::size_t chunks_per_thread = 4);

  // The hardware threads, at most the CPUs of the affinity mask (never below 1).
  static unsigned hardware_threads();

 private:
  void worker_loop();
  void drain();  // takes task indices of the current job until none are left

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one job at a time

  std::mutex mutex_;  // guards everything below
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t count_ = 0;
  std::size_t next_ = 0;
  std::size_t finished_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace zkp
