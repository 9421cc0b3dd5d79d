// What a plugin object calls back, and from which thread: host services of its own for every
// object a thread-rule check creates (zkp_common.h: "owned by the host, valid until the object
// created with it is destroyed"; log and now_ns are [any-thread]). A call that arrives after
// its object was destroyed, or through the services of another, destroyed object, breaks
// that rule; the records live as long as the process, so such a call is counted, not a crash.
#pragma once

#include <zkpipe/zkp_common.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace zkp::conformance {

class TrackedServices {
 public:
  // Services for one object, and a record of its calls; never freed (see above). Called on
  // the main thread.
  static TrackedServices& make(std::string object);

  const zkp_host_services_t* services() const { return &services_; }
  const std::string& object() const { return object_; }

  // The object's destroy() has returned: every later call is a late one.
  void destroyed() { destroyed_.store(true); }

  uint64_t log_calls() const { return log_calls_.load(); }
  uint64_t clock_calls() const { return clock_calls_.load(); }
  uint64_t late_calls() const { return late_calls_.load(); }
  // The last message logged after destroy, or "".
  std::string late_message() const;
  // Threads that called back, and how many of them are not in `ours` (threads the check ran
  // the object's calls on): those are the plugin's own.
  size_t thread_count() const;
  size_t foreign_threads(const std::set<std::thread::id>& ours) const;

 private:
  explicit TrackedServices(std::string object);
  void record(bool is_log, const char* message);

  std::string object_;
  zkp_host_services_t services_;
  std::atomic<bool> destroyed_{false};
  std::atomic<uint64_t> log_calls_{0}, clock_calls_{0}, late_calls_{0};
  mutable std::mutex mutex_;
  std::set<std::thread::id> threads_;
  std::string late_message_;
};

// How long a check waits after destroy() for calls a plugin's own thread may still make.
inline constexpr int kQuietAfterDestroyMs = 250;

}  // namespace zkp::conformance
