// Issue 10, items 2 and 3, through the C API: a worker starts its next queued partition
// before it finishes the one it holds (worker_overlap), the prover is told the host's
// concurrency at create (zkp_prover_facts_t, with the fallback to plain create), and a
// proof the prover verified is not verified again. Issue 18 item 3: a synthesis no retry can
// follow is handed over to the prover (ZKP_PROVE_INPUT_FINAL), and only such a one. The hosttest prover's trace
// (tests/host/plugins/test_prover.cpp) is the record of what the host called, in order.
// Labelled "pipeline" for the TSan pass.
#include "host_test_support.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace zkp::test {
namespace {

constexpr int64_t kPromptMs = 5'000;  // a partition that waits for new work never completes

// A trace file of its own for one test, removed after it.
class Trace {
 public:
  Trace() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("zkpipe-trace-" + std::to_string(getpid()) + "-" + std::to_string(counter.fetch_add(1)) + ".txt");
    std::filesystem::remove(path_);
  }
  ~Trace() { std::filesystem::remove(path_); }
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  std::string option() const { return "prover.trace=" + path_.string(); }

  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    std::ifstream in(path_);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

 private:
  std::filesystem::path path_;
};

// The trace's prove calls: {"start"|"finish"|"start-failed", label}, in call order.
std::vector<std::pair<std::string, std::string>> prove_calls(const Trace& trace) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& line : trace.lines()) {
    std::istringstream words(line);
    std::string verb;
    words >> verb;
    if (verb != "start" && verb != "finish" && verb != "start-failed") continue;
    std::string label, word;
    words >> label;
    if (label == "fail-start" || label == "fail-prove") {  // "fail-start p2": the label has two words
      words >> word;
      label += " " + word;
    }
    out.emplace_back(verb, label);
  }
  return out;
}

// Position of the first {verb, label} call, or -1.
long index_of(const std::vector<std::pair<std::string, std::string>>& calls, const std::string& verb,
              const std::string& label) {
  auto it = std::find(calls.begin(), calls.end(), std::make_pair(verb, label));
  return it == calls.end() ? -1 : static_cast<long>(it - calls.begin());
}

// The most ops outstanding at once (started, not yet finished) in `calls`.
int most_outstanding(const std::vector<std::pair<std::string, std::string>>& calls) {
  int now = 0, most = 0;
  for (const auto& [verb, label] : calls) {
    if (verb == "start") most = std::max(most, ++now);
    if (verb == "finish" || verb == "start-failed") --now;
  }
  return most;
}

long count_lines(const Trace& trace, const std::string& line) {
  const auto lines = trace.lines();
  return std::count(lines.begin(), lines.end(), line);
}

// n partitions whose witness texts are their labels: "p0", "p1", ..., with `hooks`
// replacing some ("fail-start p2").
std::map<uint32_t, std::string> labels(uint32_t n, const std::map<uint32_t, std::string>& hooks = {}) {
  std::map<uint32_t, std::string> out;
  for (uint32_t i = 0; i < n; ++i) {
    // Appended, not "p" + to_string(i): GCC 12's -Wrestrict misfires on that once inlined.
    std::string label = "p";
    label += std::to_string(i);
    out[i] = hooks.contains(i) ? hooks.at(i) : label;
  }
  return out;
}

// One device, one worker, 30 ms a proof: after the first proof every partition is
// queued long before the worker looks for its next one. One synthesis thread: they
// queue, and are proved, in partition order.
std::vector<std::string> one_worker(const Trace& trace, std::vector<std::string> more = {}) {
  std::vector<std::string> config = {"prover=hosttest", "prover.gpu_ms=30", "workers_per_device=1",
                                     "synthesis_threads=1", "pacer=recorder", trace.option()};
  config.insert(config.end(), more.begin(), more.end());
  return config;
}

// `cancelled`: the job was cancelled, which opens a window where the recorder's count
// of partitions in flight differs from the snapshot, by design (recorder_pacer.cpp).
void expect_pacer_saw_no_error(zkp_host_t* host, bool cancelled = false) {
  const std::string line = pacer_status(host);
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
  if (!cancelled) {
    EXPECT_EQ(status_field(line, "mismatches"), 0) << line;
  }
  EXPECT_EQ(status_field(line, "overlaps"), 0) << line;
  EXPECT_EQ(status_field(line, "violations"), 0) << line;
  const zkp_host_stats_t s = stats(host);
  EXPECT_EQ(s.pending + s.synthesizing + s.waiting + s.proving, 0u);
  EXPECT_EQ(s.budget_used_bytes, 0u);
}

// -- overlap --------------------------------------------------------------------------

TEST(WorkerOverlap, StartsTheNextQueuedPartitionBeforeFinishingTheOneItHolds) {
  Trace trace;
  HostPtr host = must_create(one_worker(trace));
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  constexpr uint32_t kParts = 6;
  const auto texts = labels(kParts);
  Partitions parts(kParts, texts);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), kParts);
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_NE(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
  }

  const auto calls = prove_calls(trace);
  std::vector<std::string> started;
  for (const auto& [verb, label] : calls) {
    if (verb == "start") started.push_back(label);
  }
  ASSERT_EQ(started.size(), kParts);
  // From the second partition on the queue is full: start(k+1) comes before finish(k).
  for (size_t k = 1; k + 1 < started.size(); ++k) {
    EXPECT_LT(index_of(calls, "start", started[k + 1]), index_of(calls, "finish", started[k]))
        << "partition " << started[k + 1] << " was not started before " << started[k] << " was finished";
  }
  // Finished in the order started, never more than two held.
  std::vector<std::string> finished;
  for (const auto& [verb, label] : calls) {
    if (verb == "finish") finished.push_back(label);
  }
  EXPECT_EQ(finished, started);
  EXPECT_EQ(most_outstanding(calls), 2);
  expect_pacer_saw_no_error(host.get());
}

TEST(WorkerOverlap, OffNeverStartsBeforeFinishing) {
  Trace trace;
  HostPtr host = must_create(one_worker(trace, {"worker_overlap=false"}));
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(6, labels(6));
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 6u);
  for (const Record& r : c.records) EXPECT_EQ(r.status, ZKP_OK) << r.message;
  const auto calls = prove_calls(trace);
  EXPECT_EQ(calls.size(), 12u);
  EXPECT_EQ(most_outstanding(calls), 1);
}

TEST(WorkerOverlap, ALonePartitionIsFinishedWithoutWaitingForMoreWork) {
  // Nothing else is queued: the worker must finish it at once, not hold it while it
  // waits for a next partition (which never comes).
  Trace trace;
  HostPtr host = must_create(one_worker(trace));
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(1, labels(1));
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &c));
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_wait(host.get(), job, kPromptMs, &err), ZKP_OK) << err.message;
  ASSERT_EQ(c.records.size(), 1u);
  EXPECT_EQ(c.records[0].status, ZKP_OK) << c.records[0].message;
  expect_pacer_saw_no_error(host.get());
}

TEST(WorkerOverlap, AnIdleWorkerOfTheDeviceGetsTheNextPartitionNotABusyOne) {
  // Two workers, two caller-synthesized partitions that enter the GPU queue together (at
  // admission): each worker proves one, on its own stream, instead of one worker stacking
  // both on its stream while the other idles.
  Trace trace;
  HostPtr host = must_create({"prover=hosttest", "prover.gpu_ms=50", "workers_per_device=2", "pacer=recorder",
                              "pacer.hold_ms=100", trace.option()});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(2);
  zkp_synthesized_t external{};
  external.header = ZKP_HEADER_INIT(zkp_synthesized_t);
  for (zkp_partition_t& p : parts.list) p.synthesized = &external;
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 2u);
  EXPECT_NE(c.records[0].worker, c.records[1].worker);
}

// Five partitions on one worker, p2 labelled `hook` (a test prover fault): p2 fails with
// `message` at gpu_index 0 and no proof, every other partition proves. Returns the prover's
// start/finish calls in order.
std::vector<std::pair<std::string, std::string>> five_with_a_failing_p2(Trace& trace, HostPtr& host,
                                                                        const std::string& hook,
                                                                        const std::string& message) {
  host = must_create(one_worker(trace));
  if (!host) {
    ADD_FAILURE() << "no host";
    return {};
  }
  const uint64_t key = must_load_key(host.get());
  Collector c;
  const auto texts = labels(5, {{2, hook}});
  Partitions parts(5, texts);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  EXPECT_EQ(c.records.size(), 5u);
  for (const Record& r : c.records) {
    if (r.partition == 2) {
      EXPECT_EQ(r.status, ZKP_ERR_DEVICE);
      EXPECT_EQ(r.message, message);
      EXPECT_EQ(r.gpu_index, 0);
      EXPECT_TRUE(r.proof.empty());
    } else {
      EXPECT_EQ(r.status, ZKP_OK) << r.partition << ": " << r.message;
      EXPECT_EQ(r.proof.size(), ZKP_PROOF_SIZE_BN254);
    }
  }
  return prove_calls(trace);
}

TEST(WorkerOverlap, AStartFailureOfTheNextIsReportedWhileTheHeldOneFinishes) {
  Trace trace;
  HostPtr host;
  const auto calls =
      five_with_a_failing_p2(trace, host, "fail-start p2", "prove_start: hosttest: injected start fault");
  ASSERT_TRUE(host);
  // It failed while p1 was held (started, not finished), and p1 was finished after.
  const long failed = index_of(calls, "start-failed", "fail-start p2");
  ASSERT_GE(failed, 0);
  EXPECT_LT(index_of(calls, "start", "p1"), failed);
  EXPECT_GT(index_of(calls, "finish", "p1"), failed);
  EXPECT_EQ(index_of(calls, "finish", "fail-start p2"), -1);  // a failed start has no op to finish
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "failed"), 1) << line;
  EXPECT_EQ(status_field(line, "gpu_done"), 4) << line;
  expect_pacer_saw_no_error(host.get());
}

TEST(WorkerOverlap, AFinishFailureLeavesTheNextInFlightToBeFinished) {
  Trace trace;
  HostPtr host;
  const auto calls =
      five_with_a_failing_p2(trace, host, "fail-prove p2", "prove_finish: hosttest: injected device fault");
  ASSERT_TRUE(host);
  // p3 was on the device when p2's finish failed, and was finished after it.
  const long failed = index_of(calls, "finish", "fail-prove p2");
  ASSERT_GE(failed, 0);
  EXPECT_LT(index_of(calls, "start", "p3"), failed);
  EXPECT_GT(index_of(calls, "finish", "p3"), failed);
  EXPECT_EQ(std::count_if(calls.begin(), calls.end(), [](const auto& c) { return c.first == "start"; }), 5);
  EXPECT_EQ(std::count_if(calls.begin(), calls.end(), [](const auto& c) { return c.first == "finish"; }), 5);
  expect_pacer_saw_no_error(host.get());
}

TEST(WorkerOverlap, ADeviceLostWithTwoOpsOnItSendsBothElsewhere) {
  // Device 1 proves one partition, then is lost. Its worker holds two ops when the first
  // failure comes (overlap): both fail there and both are retried on device 0.
  Trace trace;
  HostPtr host = must_create({"prover=hosttest", "prover.devices=2", "prover.gpu_ms=30", "prover.lost_device=1",
                              "prover.lost_after=1", "workers_per_device=1", "synthesis_threads=2",
                              "pacer=recorder", trace.option()});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  constexpr uint32_t kParts = 10;
  Partitions parts(kParts, labels(kParts));
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), kParts);
  uint32_t on_device1 = 0;
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.partition << ": " << r.message;
    ASSERT_EQ(r.proof.size(), ZKP_PROOF_SIZE_BN254);
    EXPECT_EQ(r.proof[2 * ZKP_SCALAR_SIZE], static_cast<uint8_t>(r.gpu_index)) << "proof and record disagree";
    if (r.gpu_index == 1) ++on_device1;
  }
  EXPECT_EQ(on_device1, 1u);
  const zkp_device_info_t lost = device_info(host.get(), 1);
  EXPECT_EQ(lost.partitions_proved, 1u);
  EXPECT_EQ(lost.partitions_started, 3u);  // the good one, the one that failed, the one behind it
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "requeued"), 2) << line;
  EXPECT_EQ(status_field(line, "gpu_done"), static_cast<long long>(kParts)) << line;
  expect_pacer_saw_no_error(host.get());
}

// Waits until the worker holds two ops (stats.proving == 2), or 10 s.
bool wait_for_two_held(zkp_host_t* host) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (stats(host).proving == 2) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

TEST(WorkerOverlap, CancelFinishesBothHeldOpsAndDropsTheQueue) {
  Trace trace;
  HostPtr host = must_create(one_worker(trace, {"prover.gpu_ms=200", "budget=4MiB"}));
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  constexpr uint32_t kParts = 8;
  Partitions parts(kParts, labels(kParts));
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &c));
  ASSERT_TRUE(wait_for_two_held(host.get()));
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_cancel(host.get(), job, &err), ZKP_OK) << err.message;
  must_wait(host.get(), job);
  ASSERT_EQ(c.records.size(), kParts);
  uint32_t ok = 0;
  for (const Record& r : c.records) {
    if (r.status == ZKP_OK) {
      ++ok;
      EXPECT_EQ(r.proof.size(), ZKP_PROOF_SIZE_BN254);
    } else {
      EXPECT_EQ(r.status, ZKP_ERR_CANCELLED) << r.message;
      EXPECT_EQ(r.gpu_index, -1) << "a partition that reached the device was cancelled";
    }
  }
  // Every partition that reached the device (both held ones too) finished with a proof.
  const zkp_device_info_t d = device_info(host.get(), 0);
  EXPECT_GE(ok, 2u);
  EXPECT_EQ(ok, d.partitions_started);
  EXPECT_EQ(d.partitions_proved, d.partitions_started);
  EXPECT_LT(ok, kParts);  // and the rest never did
  const auto calls = prove_calls(trace);
  EXPECT_EQ(std::count_if(calls.begin(), calls.end(), [](const auto& x) { return x.first == "finish"; }),
            static_cast<long>(ok));
  expect_pacer_saw_no_error(host.get(), /*cancelled=*/true);
}

TEST(WorkerOverlap, ShutdownWithTwoOpsHeldFinishesThem) {
  Trace trace;
  Collector c;
  constexpr uint32_t kParts = 6;
  Partitions parts(kParts, labels(kParts));
  {
    HostPtr host = must_create(one_worker(trace, {"prover.gpu_ms=200", "budget=3MiB"}));
    ASSERT_TRUE(host);
    const uint64_t key = must_load_key(host.get());
    must_submit(host.get(), make_job(key, parts, &c));
    ASSERT_TRUE(wait_for_two_held(host.get()));
    zkp_error_t err = make_error();
    ASSERT_EQ(zkp_host_shutdown(host.get(), ZKP_SHUTDOWN_CANCEL, &err), ZKP_OK) << err.message;
    EXPECT_EQ(stats(host.get()).proving, 0u);
  }
  ASSERT_EQ(c.records.size(), kParts);
  uint32_t ok = 0;
  for (const Record& r : c.records) {
    if (r.status == ZKP_OK) ++ok;
    else EXPECT_EQ(r.status, ZKP_ERR_CANCELLED) << r.message;
  }
  EXPECT_GE(ok, 2u);
  const auto calls = prove_calls(trace);
  const auto starts = std::count_if(calls.begin(), calls.end(), [](const auto& x) { return x.first == "start"; });
  const auto finishes = std::count_if(calls.begin(), calls.end(), [](const auto& x) { return x.first == "finish"; });
  EXPECT_EQ(starts, finishes) << "an op was left unfinished";
  EXPECT_EQ(finishes, static_cast<long>(ok));
}

// -- facts ----------------------------------------------------------------------------

TEST(ProverFacts, TheProverIsToldTheWorkersAndThreads) {
  Trace trace;
  HostPtr host = must_create({"prover=hosttest", "workers_per_device=3", "synthesis_threads=2", trace.option()});
  ASSERT_TRUE(host);
  EXPECT_EQ(trace.lines().at(0), "facts 3 2 2");  // ops_per_worker 2: overlap is on
}

TEST(ProverFacts, WithoutOverlapOneOpPerWorker) {
  Trace trace;
  HostPtr host = must_create({"prover=hosttest", "workers_per_device=4", "synthesis_threads=1",
                              "worker_overlap=false", trace.option()});
  ASSERT_TRUE(host);
  EXPECT_EQ(trace.lines().at(0), "facts 4 1 1");
}

TEST(ProverFacts, AFirstReleaseFactoryTableIsCreatedWithCreate) {
  // hosttest_v1's table ends at create (and a trap follows it): the host must call
  // create, and the prover then has the SDK's default facts.
  Trace trace;
  Created created = create_host({"prover=hosttest_v1", "workers_per_device=3", trace.option()});
  ASSERT_EQ(created.status, ZKP_OK) << created.message;
  EXPECT_EQ(trace.lines().at(0), "facts 1 1 1");
  const uint64_t key = must_load_key(created.host.get());
  Collector c;
  Partitions parts(3);
  must_submit(created.host.get(), make_job(key, parts, &c));
  must_wait(created.host.get());
  ASSERT_EQ(c.records.size(), 3u);
  for (const Record& r : c.records) EXPECT_EQ(r.status, ZKP_OK) << r.message;
}

// -- one owner of the self-check --------------------------------------------------------

TEST(SelfCheckOwner, AProofTheProverVerifiedIsNotVerifiedAgain) {
  Trace trace;
  HostPtr host = must_create({"prover=hosttest", "prover.verified=true", trace.option()});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(3);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 3u);
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_NE(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
  }
  EXPECT_EQ(count_lines(trace, "verify"), 0);
}

TEST(SelfCheckOwner, WithoutTheFlagTheHostVerifiesEachProofOnce) {
  Trace trace;
  HostPtr host = must_create({"prover=hosttest", trace.option()});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(3, {{1, "bad-proof"}});
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 3u);
  for (const Record& r : c.records) {
    if (r.partition == 1) {
      EXPECT_EQ(r.status, ZKP_ERR_UNSATISFIED_WITNESS);  // the host's check caught it
      EXPECT_EQ(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
    } else {
      EXPECT_EQ(r.status, ZKP_OK) << r.message;
      EXPECT_NE(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
    }
  }
  EXPECT_EQ(count_lines(trace, "verify"), 3);
}

TEST(SelfCheckOwner, SelfCheckOffAndNoFlagVerifiesNothing) {
  Trace trace;
  HostPtr host = must_create({"prover=hosttest", "self_check=false", trace.option()});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(2);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 2u);
  for (const Record& r : c.records) EXPECT_EQ(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
  EXPECT_EQ(count_lines(trace, "verify"), 0);
}

// -- synthesis hand-over (ZKP_PROVE_INPUT_FINAL) ------------------------------------------

// How many prove_starts were told the synthesis is theirs ("final LABEL" trace lines).
long handed_over(const Trace& trace) {
  const auto lines = trace.lines();
  return std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("final "); });
}

// kParts partitions proved with `config`; every one must succeed.
void prove_all(const std::vector<std::string>& config, uint32_t parts_count, int32_t gpu_index = -1) {
  HostPtr host = must_create(config);
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(parts_count, labels(parts_count));
  must_submit(host.get(), make_job(key, parts, &c, gpu_index));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), parts_count);
  for (const Record& r : c.records) EXPECT_EQ(r.status, ZKP_OK) << r.partition << ": " << r.message;
}

TEST(SynthesisHandover, OneDeviceHandsEverySynthesisOver) {
  Trace trace;
  prove_all(one_worker(trace), 4);
  EXPECT_EQ(handed_over(trace), 4);
}

TEST(SynthesisHandover, TwoDevicesWithRetriesKeepEverySynthesis) {
  Trace trace;
  prove_all({"prover=hosttest", "prover.devices=2", "device_retries=2", trace.option()}, 4);
  EXPECT_EQ(handed_over(trace), 0);
}

TEST(SynthesisHandover, NoRetriesOrAPinnedJobHandItOver) {
  Trace none, pinned;
  prove_all({"prover=hosttest", "prover.devices=2", "device_retries=0", none.option()}, 4);
  EXPECT_EQ(handed_over(none), 4);
  prove_all({"prover=hosttest", "prover.devices=2", "device_retries=2", pinned.option()}, 4, 1);
  EXPECT_EQ(handed_over(pinned), 4);
}

TEST(SynthesisHandover, TheLastRetryHandsItOverTheFirstAttemptDoesNot) {
  // Device 1 fails every proof; with one retry each of its partitions is proved again on
  // device 0, and that attempt, which nothing can follow, gets the synthesis.
  Trace trace;
  prove_all({"prover=hosttest", "prover.devices=2", "prover.lost_device=1", "prover.lost_after=0", "device_retries=1",
             "workers_per_device=1", trace.option()},
            6);
  long failed_on_1 = 0;
  for (const std::string& l : trace.lines()) {
    if (l.starts_with("start ") && l.ends_with(" 1 0")) ++failed_on_1;
  }
  EXPECT_GT(failed_on_1, 0);
  EXPECT_EQ(handed_over(trace), failed_on_1);
}

}  // namespace
}  // namespace zkp::test
