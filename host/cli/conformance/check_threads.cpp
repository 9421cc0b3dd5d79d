// The thread rules of a prover (zkp_common.h's tags on zkp_prover.h's calls), checked as a
// host with many threads drives it: create, key_free and destroy on this check's main thread
// (a host makes them on any thread: [any-thread], [serialized]), synthesize on several
// synthesis threads at once [synthesis-thread], and prove_start/prove_finish on more than two
// worker threads at once, each worker holding two ops as worker_overlap does
// [worker-thread]; the proofs must still be the reference's. Every
// call the prover makes back into its host services is recorded with its thread: they may
// come from any thread, but only while the prover lives.
#include "call_trace.hpp"
#include "check_support.hpp"
#include "checks.hpp"

#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <latch>
#include <mutex>
#include <thread>

namespace zkp::conformance {

namespace {

// More workers than the two every host has by default, and more synthesis threads.
constexpr uint32_t kWorkersPerDevice = 4;
constexpr uint32_t kSynthesisThreads = 4;
constexpr uint32_t kOpsPerWorker = 2;
// Enough devices' workers to show the rule; a machine with more devices is checked on these.
constexpr uint32_t kMostDevices = 4;

// The most callers seen inside a call at once.
class InFlight {
 public:
  void enter() {
    const int now = ++current_;
    int seen = most_.load();
    while (now > seen && !most_.compare_exchange_weak(seen, now)) {
    }
  }
  void leave() { --current_; }
  int most() const { return most_.load(); }

 private:
  std::atomic<int> current_{0}, most_{0};
};

class ThreadSet {
 public:
  void add() {
    const std::lock_guard lock(mutex_);
    ids_.insert(std::this_thread::get_id());
  }
  std::set<std::thread::id> ids() const {
    const std::lock_guard lock(mutex_);
    return ids_;
  }

 private:
  mutable std::mutex mutex_;
  std::set<std::thread::id> ids_;
};

// The concurrency checks on one vector; false if the plugin does not support its key.
bool check_concurrency(Report& report, zkp_prover_t* p, uint32_t devices, zkp_prover_t* ref,
                       const std::filesystem::path& dir, ThreadSet& ours) {
  const std::string zkey = (dir / "circuit.zkey").string();
  const Bytes wtns = read_file((dir / "witness.wtns").string());
  const std::string name = (dir.has_filename() ? dir : dir.parent_path()).filename().string();
  zkp_error_t err = error_record();
  LoadedKey key, ref_key;
  if (load_key(p, zkey, -1, key, err) != ZKP_OK) return false;
  if (load_key(ref, zkey, -1, ref_key, err) != ZKP_OK) return false;
  const Bytes rs = fixed_randomness();
  const ProveResult want = prove(ref, ref_key.key, wtns, rs.data(), 0, 0, err);
  if (want.status != ZKP_OK) return false;

  auto info = sdk::make_struct<zkp_key_info_t>();
  if (p->key_info(p, key.key, &info, &err) != ZKP_OK) return false;
  auto witness = sdk::make_struct<zkp_witness_t>();
  witness.kind = ZKP_WITNESS_WTNS_BUFFER;
  witness.data = wtns.data();
  witness.size = wtns.size();

  const uint32_t d = std::min(devices, kMostDevices);
  const uint32_t workers = d * kWorkersPerDevice;
  const uint32_t partitions = workers * kOpsPerWorker;

  // Synthesis threads, all at once.
  std::vector<zkp_synthesis_t*> syntheses(partitions, nullptr);
  std::vector<zkp_status_t> synth_status(partitions, ZKP_ERR_INTERNAL);
  std::vector<std::string> messages(partitions);
  InFlight synthesizing;
  {
    std::latch go(kSynthesisThreads);
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kSynthesisThreads; ++t) {
      threads.emplace_back([&, t] {
        ours.add();
        go.arrive_and_wait();
        for (uint32_t i = t; i < partitions; i += kSynthesisThreads) {
          zkp_error_t e = error_record();
          synthesizing.enter();
          synth_status[i] = p->synthesize(p, key.key, &witness, &syntheses[i], &e);
          synthesizing.leave();
          messages[i] = status_text(synth_status[i], e);
        }
      });
    }
    for (std::thread& t : threads) t.join();
  }
  const auto bad_synth =
      std::find_if(synth_status.begin(), synth_status.end(), [](zkp_status_t s) { return s != ZKP_OK; });
  report.check(bad_synth == synth_status.end(),
               cat(name, ": ", kSynthesisThreads, " synthesis threads synthesize ", partitions, " partitions (up to ",
                   synthesizing.most(), " at once) [synthesis-thread]"),
               bad_synth == synth_status.end() ? std::string() : messages[bad_synth - synth_status.begin()]);
  if (bad_synth != synth_status.end()) {
    for (zkp_synthesis_t* s : syntheses) {
      if (s != nullptr) p->synthesis_free(p, s);
    }
    return true;
  }

  // Worker threads, all at once: start, start, finish, finish, as worker_overlap drives them.
  std::vector<std::string> failures(workers);
  InFlight proving;
  {
    std::latch go(workers);
    std::vector<std::thread> threads;
    for (uint32_t w = 0; w < workers; ++w) {
      threads.emplace_back([&, w] {
        ours.add();
        const auto gpu = static_cast<int32_t>(w / kWorkersPerDevice);
        const uint32_t worker = w % kWorkersPerDevice;
        zkp_prove_op_t* ops[kOpsPerWorker] = {};
        zkp_error_t e = error_record();
        go.arrive_and_wait();
        for (uint32_t k = 0; k < kOpsPerWorker; ++k) {
          auto input = sdk::make_struct<zkp_prove_input_t>();
          input.synthesis = syntheses[w * kOpsPerWorker + k];
          input.randomness = rs.data();
          proving.enter();
          const zkp_status_t s = p->prove_start(p, key.key, &input, gpu, worker, &ops[k], &e);
          if (s != ZKP_OK) {
            proving.leave();
            ops[k] = nullptr;
            if (failures[w].empty()) failures[w] = cat("prove_start: ", status_text(s, e));
          }
        }
        for (uint32_t k = 0; k < kOpsPerWorker; ++k) {
          if (ops[k] == nullptr) continue;
          Bytes proof(info.proof_size), publics(info.public_size);
          auto out = sdk::make_struct<zkp_prove_output_t>();
          out.proof = proof.data();
          out.proof_capacity = proof.size();
          out.public_inputs = publics.data();
          out.public_capacity = publics.size();
          const zkp_status_t s = p->prove_finish(p, ops[k], &out, &e);
          proving.leave();
          if (failures[w].empty() && s != ZKP_OK) failures[w] = cat("prove_finish: ", status_text(s, e));
          if (failures[w].empty() && (proof != want.proof || publics != want.public_inputs))
            failures[w] = cat("op ", k, " of worker ", worker, " on device ", gpu, ": a proof that differs");
        }
        for (uint32_t k = 0; k < kOpsPerWorker; ++k) p->synthesis_free(p, syntheses[w * kOpsPerWorker + k]);
      });
    }
    for (std::thread& t : threads) t.join();
  }
  const auto bad = std::find_if(failures.begin(), failures.end(), [](const std::string& f) { return !f.empty(); });
  report.check(bad == failures.end(),
               cat(name, ": ", workers, " worker threads (workers 0..", kWorkersPerDevice - 1, " of ", d,
                   " device(s)) at once, each holding ", kOpsPerWorker, " ops (start, start, finish, finish): all ",
                   partitions, " proofs are the built-in prover's [worker-thread]"),
               bad == failures.end() ? std::string() : *bad);
  report.check(proving.most() > 2,
               cat(name, ": more than two proofs in flight at once (up to ", proving.most(), " of ", partitions, ")"),
               "the worker threads never overlapped");
  return true;
}

}  // namespace

void check_prover_threads(Report& report, std::shared_ptr<host::PluginLibrary> lib, const Settings& settings,
                          zkp_prover_t* ref) {
  report.section(cat("thread rules of the prover of '", lib->name(), "'"));
  TrackedServices& tracked = TrackedServices::make("prover");
  ThreadSet ours;
  ours.add();  // the main thread: create, key_load, key_free, destroy

  ProverHandle h;
  zkp_error_t err = error_record();
  const zkp_prover_factory_t& f = *prover_factory(*lib);
  const FactsRequest facts{.workers_per_device = kWorkersPerDevice,
                           .synthesis_threads = kSynthesisThreads,
                           .ops_per_worker = kOpsPerWorker};
  zkp_status_t s = create_prover(lib, settings.options, h, err, facts, tracked.services());
  bool concurrent = s == ZKP_OK && has_create_with_facts(f);
  if (s == ZKP_OK && !has_create_with_facts(f)) {
    report.skip("no create_with_facts (a first-release table): the plugin was not told of more workers, so the "
                "concurrency checks");
  } else if (s != ZKP_OK) {
    report.skip(cat("the plugin refuses ", kWorkersPerDevice, " workers per device, ", kSynthesisThreads,
                    " synthesis threads and ", kOpsPerWorker, " ops per worker (", status_text(s, err),
                    "): the concurrency checks"));
    s = create_prover(lib, settings.options, h, err, {}, tracked.services());
  }
  if (!report.check(s == ZKP_OK, "creates a prover whose host services record every call back", status_text(s, err)))
    return;
  zkp_prover_t* p = h.get();
  const uint32_t devices = p->device_count(p);
  if (devices == 0 || (p->flags & ZKP_PROVER_FLAG_SIMULATED) != 0 || ref == nullptr || settings.vectors.empty()) {
    concurrent = false;
    report.skip("no device, a simulated prover, or no vectors: the concurrency checks");
  }
  if (concurrent) {
    bool any = false;
    for (const std::string& dir : settings.vectors) any = check_concurrency(report, p, devices, ref, dir, ours) || any;
    if (!any) report.skip("the plugin supports none of the vectors' keys: the concurrency checks");
  }

  h.prover.reset();
  tracked.destroyed();
  std::this_thread::sleep_for(std::chrono::milliseconds(kQuietAfterDestroyMs));
  const size_t own = tracked.foreign_threads(ours.ids());
  report.pass(cat("host services: ", tracked.log_calls(), " log and ", tracked.clock_calls(), " clock calls from ",
                  tracked.thread_count(), " thread(s), ", own, " of them the plugin's own [any-thread]"));
  report.check(tracked.late_calls() == 0,
               cat("no host-service call after destroy returned (within ", kQuietAfterDestroyMs,
                   " ms): the services are valid until the prover is destroyed"),
               cat(tracked.late_calls(), " call(s) after destroy, the last: '", tracked.late_message(), "'"));
}

}  // namespace zkp::conformance
