#include "call_trace.hpp"

#include <zkpipe/sdk/error.hpp>

#include <chrono>
#include <deque>
#include <memory>

namespace zkp::conformance {

TrackedServices& TrackedServices::make(std::string object) {
  // Never freed, not even at exit (a plugin that breaks the rule may call after the check is
  // over), and reachable from this static, so a leak checker does not count them.
  static auto* const all = new std::deque<std::unique_ptr<TrackedServices>>();
  all->push_back(std::unique_ptr<TrackedServices>(new TrackedServices(std::move(object))));
  return *all->back();
}

TrackedServices::TrackedServices(std::string object)
    : object_(std::move(object)), services_(sdk::make_struct<zkp_host_services_t>()) {
  services_.host_data = this;
  services_.log = [](void* self, zkp_log_level_t, const char* message) {
    static_cast<TrackedServices*>(self)->record(true, message);
  };
  services_.now_ns = [](void* self) -> uint64_t {
    static_cast<TrackedServices*>(self)->record(false, nullptr);
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
  };
}

void TrackedServices::record(bool is_log, const char* message) {
  (is_log ? log_calls_ : clock_calls_).fetch_add(1);
  const bool late = destroyed_.load();
  if (late) late_calls_.fetch_add(1);
  const std::lock_guard lock(mutex_);
  threads_.insert(std::this_thread::get_id());
  if (late) late_message_ = is_log ? (message != nullptr ? message : "(null)") : "(now_ns)";
}

std::string TrackedServices::late_message() const {
  const std::lock_guard lock(mutex_);
  return late_message_;
}

size_t TrackedServices::thread_count() const {
  const std::lock_guard lock(mutex_);
  return threads_.size();
}

size_t TrackedServices::foreign_threads(const std::set<std::thread::id>& ours) const {
  const std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const std::thread::id& t : threads_) n += ours.count(t) == 0 ? 1 : 0;
  return n;
}

}  // namespace zkp::conformance
