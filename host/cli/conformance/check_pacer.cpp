#include "call_trace.hpp"
#include "check_support.hpp"
#include "checks.hpp"

#include <zkpipe/zkp_pacer.h>
#include <zkpipe/sdk/error.hpp>

#include <cstdio>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>

namespace zkp::conformance {

namespace {

zkp_pacer_facts_t facts() {
  auto f = sdk::make_struct<zkp_pacer_facts_t>();
  f.device_count = 2;
  f.workers_per_device = 2;
  f.synthesis_threads = 4;
  f.budget_bytes = uint64_t{64} << 30;
  return f;
}

zkp_pipeline_state_t state(uint64_t now_ns, uint32_t pending) {
  auto s = sdk::make_struct<zkp_pipeline_state_t>();
  s.now_ns = now_ns;
  s.pending = pending;
  s.budget_total_bytes = uint64_t{64} << 30;
  s.next_partition_bytes = pending ? uint64_t{1} << 30 : 0;
  return s;
}

struct PacerDeleter {
  void operator()(zkp_pacer_t* p) const { p->destroy(p); }
};
using PacerPtr = std::unique_ptr<zkp_pacer_t, PacerDeleter>;

// Runs `command`, echoing its output into the report's lines; returns its exit status.
int run_program(Report& report, const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char line[512];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::string text = line;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    report.note(text);
  }
  return pclose(pipe);
}

}  // namespace

void check_pacer(Report& report, std::shared_ptr<host::PluginLibrary> lib, const Settings& settings) {
  report.section(cat("pacer factory of '", lib->name(), "'"));
  const auto* f = static_cast<const zkp_pacer_factory_t*>(lib->factory(ZKP_PACER_FACTORY_ID));
  report.check(
      f->header.struct_size >= sizeof(zkp_pacer_factory_t) && f->options_help != nullptr && f->create != nullptr,
      "pacer factory: header covers the table, options_help and create are set");
  const zkp_pacer_facts_t fx = facts();
  {
    const zkp_option_t unknown[] = {{kUnknownOption, "1"}};
    zkp_pacer_t* p = nullptr;
    zkp_error_t err = error_record();
    const zkp_status_t s = f->create(host_services(), &fx, unknown, 1, &p, &err);
    if (s == ZKP_OK && p != nullptr) p->destroy(p);
    report.check(s == ZKP_ERR_INVALID_ARGUMENT && std::strstr(err.message, kUnknownOption) != nullptr,
                 "create refuses an unknown option with ZKP_ERR_INVALID_ARGUMENT, naming it",
                 cat(zkp_status_name(s), ": ", err.message));
  }

  std::vector<zkp_option_t> options;
  for (const auto& [k, v] : settings.options) options.push_back({k.c_str(), v.c_str()});
  // Its own host services, recording every call back (call_trace.hpp).
  TrackedServices& tracked = TrackedServices::make("pacer");
  zkp_pacer_t* raw = nullptr;
  zkp_error_t err = error_record();
  const zkp_status_t s = f->create(tracked.services(), &fx, options.data(), options.size(), &raw, &err);
  if (!report.check(s == ZKP_OK && raw != nullptr, "creates a pacer with the given options",
                    cat(zkp_status_name(s), ": ", err.message))) {
    return;
  }
  PacerPtr p(raw);
  report.check(p->header.struct_size >= sizeof(zkp_pacer_t) && p->name != nullptr && p->destroy && p->on_event &&
                   p->next_admission_ns && p->status_line,
               "the pacer table: header covers it, name and every function set");

  // An idle pipeline with work pending sends no event: waiting for one would wait forever.
  zkp_pipeline_state_t idle = state(fx.start_ns + 1'000'000, 1);
  const uint64_t first = p->next_admission_ns(p.get(), &idle);
  report.check(first != ZKP_PACER_WAIT_FOR_EVENT,
               cat("an idle pipeline with a partition pending is admitted to in time (answered ", first, " ns)"),
               "it answered ZKP_PACER_WAIT_FOR_EVENT, and no event will come");

  // Events: one of a kind this ABI does not define yet, and one from a newer host whose struct
  // is longer; both must be taken without harm (the pacer still answers).
  auto event = sdk::make_struct<zkp_pacer_event_t>();
  event.kind = 99;
  event.gpu_index = -1;
  event.state = state(idle.now_ns + 1, 1);
  p->on_event(p.get(), &event);
  struct Newer {
    zkp_pacer_event_t event;
    uint64_t later_fields[4];
  } newer{event, {9, 9, 9, 9}};
  newer.event.kind = ZKP_PACER_EVENT_ADMITTED;
  newer.event.bytes = uint64_t{1} << 30;
  newer.event.header.struct_size = sizeof newer;
  p->on_event(p.get(), &newer.event);
  zkp_pipeline_state_t later = state(idle.now_ns + 2, 1);
  const uint64_t again = p->next_admission_ns(p.get(), &later);
  report.pass(
      cat("an unknown event kind and a longer (newer) event struct are taken; it answers ", again, " ns after them"));

  // status_line: the length of the whole line whatever the capacity, NUL-terminated within it.
  char big[4096];
  const size_t whole = p->status_line(p.get(), big, sizeof big);
  report.check(whole < sizeof big && std::strlen(big) == whole,
               cat("status_line returns the line's length (", whole, "): '", big, "'"));
  char small[8];
  std::memset(small, 'Z', sizeof small);
  const size_t needed = p->status_line(p.get(), small, 4);
  const bool tail_untouched = small[4] == 'Z' && small[5] == 'Z' && small[6] == 'Z' && small[7] == 'Z';
  report.check(
      needed == whole && std::memchr(small, 0, 4) != nullptr && tail_untouched,
      "status_line into 4 bytes: truncated, NUL-terminated, nothing written past them, the whole length returned");
  const size_t zero = p->status_line(p.get(), nullptr, 0);
  report.check(zero == whole, "status_line with capacity 0 (and no buffer) returns the whole length");

  // Every call above came from this thread, one at a time [serialized]; what the pacer called
  // back is recorded, and nothing may come after destroy. A pacer's time is the now_ns every
  // call carries (zkp_pacer.h), so reading the host clock as well is noted, not failed: the
  // services' clock is the same pipeline clock (virtual in the simulator).
  p.reset();
  tracked.destroyed();
  std::this_thread::sleep_for(std::chrono::milliseconds(kQuietAfterDestroyMs));
  report.pass(cat("host services: ", tracked.log_calls(), " log and ", tracked.clock_calls(), " clock calls from ",
                  tracked.thread_count(), " thread(s) [any-thread]"));
  if (tracked.clock_calls() != 0)
    report.note("it read the host clock: zkp_pacer.h gives a pacer its time with every call (state.now_ns)");
  report.check(tracked.late_calls() == 0,
               cat("no host-service call after destroy returned (within ", kQuietAfterDestroyMs, " ms)"),
               cat(tracked.late_calls(), " call(s) after destroy, the last: '", tracked.late_message(), "'"));

  if (settings.pacing_sim.empty() || settings.scenario.empty()) {
    report.skip("no --pacing-sim PROGRAM --scenario FILE given: the run beside greedy");
    return;
  }
  const std::string command = cat("'", settings.pacing_sim, "' --check --pacers greedy,'", lib->path().string(), "' '",
                                  settings.scenario, "' 2>&1");
  const int rc = run_program(report, command);
  report.check(rc == 0,
               cat("the pacing simulator runs it beside greedy on ", settings.scenario, " with every invariant kept"),
               cat("exit status ", rc));
}

}  // namespace zkp::conformance
