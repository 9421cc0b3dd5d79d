#include "core/util/thread_pool.hpp"

#include <sched.h>

#include <algorithm>
#include <utility>

namespace zkp {
namespace {
// The pool whose task the current thread is running, to run nested calls inline.
//
// initial-exec: this file is linked into prover plugins, which the host dlopen()s, and a
// dlopen()ed library's thread_local is by default dynamic TLS, reached through
// __tls_get_addr on each thread's first access. GCC 12's ThreadSanitizer intercepts that
// call and, now and then, computes a bogus range for the new block (it tried to map
// 0x1ecc000017000 bytes of shadow, errno 12, killing the test; caught in gdb at
// handle_tls_addr ← CurrentPoolScope). One pointer fits glibc's static TLS surplus that
// exists for such libraries, and the access becomes a plain %fs-relative load.
[[gnu::tls_model("initial-exec")]] thread_local const ThreadPool* tl_current_pool = nullptr;

class CurrentPoolScope {
 public:
  explicit CurrentPoolScope(const ThreadPool* pool) : saved_(tl_current_pool) { tl_current_pool = pool; }
  ~CurrentPoolScope() { tl_current_pool = saved_; }
  CurrentPoolScope(const CurrentPoolScope&) = delete;
  CurrentPoolScope& operator=(const CurrentPoolScope&) = delete;

 private:
  const ThreadPool* saved_;
};
}  // namespace

unsigned ThreadPool::hardware_threads() {
  unsigned n = std::max(1u, std::thread::hardware_concurrency());
  // A process pinned to fewer CPUs (taskset, a container's cpuset) would only oversubscribe
  // them with more threads.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
    n = std::min(n, static_cast<unsigned>(CPU_COUNT(&set)));
  }
  return n;
}

ThreadPool::ThreadPool(unsigned threads) {
  const unsigned n = threads == 0 ? hardware_threads() : threads;
  workers_.reserve(n - 1);
  for (unsigned i = 1; i < n; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drain() {
  CurrentPoolScope scope(this);
  std::unique_lock lock(mutex_);
  while (next_ < count_) {
    const std::size_t i = next_++;
    const auto* task = task_;
    lock.unlock();
    try {
      (*task)(i);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      lock.unlock();
    }
    lock.lock();
    if (++finished_ == count_) done_.notify_all();
  }
}

void ThreadPool::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain();
  }
}

void ThreadPool::run(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  if (workers_.empty() || count == 1 || tl_current_pool == this) {
    CurrentPoolScope scope(this);
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::lock_guard run_lock(run_mutex_);
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    finished_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  drain();
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return finished_ == count_; });
    task_ = nullptr;
    count_ = 0;
    next_ = 0;
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

void ThreadPool::parallel_for(std::size_t n, std::size_t grain,
                              const std::function<void(std::size_t, std::size_t)>& body,
                              std::size_t chunks_per_thread) {
  if (n == 0) return;
  const std::size_t wanted = std::max<std::size_t>(1, size() * chunks_per_thread);
  const std::size_t chunk = std::max({std::size_t{1}, grain, (n + wanted - 1) / wanted});
  const std::size_t chunks = (n + chunk - 1) / chunk;
  run(chunks, [&](std::size_t c) { body(c * chunk, std::min(n, (c + 1) * chunk)); });
}

}  // namespace zkp
