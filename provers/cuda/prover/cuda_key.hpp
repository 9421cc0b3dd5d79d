// CudaKey<E>: a loaded key for the pairing engine E, and the device pipeline of one proof.
//
// One proof, on its lane's thread (lane.hpp), with the lane's device selected:
//
//   lane stream:   witness → pinned → device ─┬─ (h=device) a, b → device → H step ─┐
//   section MSMs:  A, B1, (B2), C enqueued at once, each on its own stream ──────────┴─ H
//   host threads:  (h=host) H step → pinned → device, then msm H
//                  (g2=host) G2 MSM ΣB2 on the CPU cores
//
// Every section MSM is queued behind the lane stream (cuda::Msm::enqueue_device), so the
// device runs them concurrently with each other and with the H step; the host stages run
// while it does. prove_finish then runs the CPU core's epilogue (groth16::epilogue) on the
// five sums, so the proof bytes are the cpu prover's for the same (r, s).
#pragma once

#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cpu/cpu_key.hpp"
#include "cuda/util/device_guard.hpp"
#include "device_h.hpp"
#include "groth16/h_polynomial.hpp"
#include "groth16/prover.hpp"
#include "key_state.hpp"
#include "msm/msm.hpp"
#include "resident_msm.hpp"
#include "staging.hpp"

namespace zkp::cuda::prover {

namespace detail {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

inline std::string bytes_text(std::uint64_t b) {
  return std::to_string(b) + " bytes (" + std::to_string(b >> 20) + " MiB)";
}

inline msm::Config msm_config(const ProverOptions& o) { return {o.msm_window_bits, o.msm_precompute}; }

}  // namespace detail

template <PairingEngine E>
class CudaKey final : public KeyState {
 public:
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;
  static_assert(sizeof(Int) == ZKP_SCALAR_SIZE, "MSM scalars are the ABI's 32-byte scalars");

  CudaKey(std::unique_ptr<cpu::CurveKey<E>> key, std::uint32_t device_count)
      : key_(std::move(key)), slots_(std::make_unique<Slot[]>(device_count)) {}

  const cpu::KeyBase& cpu_key() const override { return *key_; }
  const std::string& name() const override { return pk().name(); }
  const groth16::ProvingKey<E>& pk() const { return key_->proving_key(); }

  LaneNeeds lane_needs(const ProverOptions& options) const override {
    const std::size_t domain = std::size_t{pk().domain_size()} * ZKP_SCALAR_SIZE;
    const std::size_t bc = options.h == Placement::device ? domain : 0;
    return {std::size_t{pk().n_vars()} * ZKP_SCALAR_SIZE, domain, bc, bc};
  }

  std::uint64_t resident_bytes_estimate(const ProverOptions& options) const override {
    const msm::Config cfg = detail::msm_config(options);
    try {
      const std::uint64_t g2 = options.g2 == Placement::device ? ResidentMsm<G2>::device_bytes(pk().b2().size(), cfg) : 0;
      return ResidentMsm<G1>::device_bytes(pk().a().size(), cfg) + ResidentMsm<G1>::device_bytes(pk().b1().size(), cfg) +
             ResidentMsm<G1>::device_bytes(pk().c().size(), cfg) + ResidentMsm<G1>::device_bytes(pk().h().size(), cfg) + g2;
    } catch (const std::invalid_argument& e) {  // make_plan: past the device MSM's 32-bit indices
      throw sdk::Error(ZKP_ERR_UNSUPPORTED, "key " + name() + " is too large for the device MSM: " + e.what());
    }
  }

  void make_resident(DeviceSlot& device, const ProverOptions& options) override {
    Slot& slot = slots_[device.index()];
    std::lock_guard lk(slot.mutex);
    if (slot.resident) return;
    std::string why;
    if (device.lost(&why)) throw sdk::Error(ZKP_ERR_DEVICE, device.label() + " is unusable after an earlier fault: " + why);
    const std::uint64_t bases = resident_bytes_estimate(options);
    const std::uint64_t scratch = std::uint64_t{lane_needs(options).total()} * device.lanes().size();
    const bool limited = options.device_memory_bytes != 0 && options.device_memory_bytes < device.memory_bytes();
    const std::uint64_t usable = limited ? options.device_memory_bytes : device.memory_bytes();
    if (bases + scratch > usable) {
      throw sdk::Error(ZKP_ERR_OUT_OF_MEMORY,
                       device.label() + ": key " + name() + " is too large for the device: it needs about " +
                           detail::bytes_text(bases + scratch) + " (resident bases " + detail::bytes_text(bases) +
                           " with msm_precompute=" + precompute_text(options) + ", scratch of " +
                           std::to_string(device.lanes().size()) + " workers " + detail::bytes_text(scratch) +
                           "), the device has " + detail::bytes_text(usable) +
                           (limited ? " (device_memory_bytes)" : " in total") +
                           "; a smaller msm_precompute or fewer workers need less");
    }
    DeviceGuard guard(device.ordinal());
    try {
      slot.resident = std::make_unique<Resident>(device, pk(), options);
    } catch (const CudaError& e) {
      std::size_t free = 0, total = 0;
      cudaMemGetInfo(&free, &total);
      cudaGetLastError();
      throw sdk::Error(e.status(), device.label() + ": uploading key " + name() + " (about " + detail::bytes_text(bases) +
                                       " of resident bases; " + detail::bytes_text(free) + " free of " +
                                       detail::bytes_text(total) + ") failed: " + e.what());
    }
  }

  bool resident_on(std::uint32_t gpu_index) const override {
    Slot& slot = slots_[gpu_index];
    std::lock_guard lk(slot.mutex);
    return slot.resident != nullptr;
  }

  std::unique_ptr<zkp_prove_op_t> start(DeviceSlot& device, Lane& lane, std::unique_ptr<zkp_prove_op_t> cpu_op,
                                        const Context& ctx) override {
    auto* curve_op = dynamic_cast<cpu::CurveOp<E>*>(cpu_op.get());
    if (curve_op == nullptr) throw sdk::Error(ZKP_ERR_INTERNAL, "cuda: the cpu key returned an op of another curve");
    Resident* resident = nullptr;
    {
      Slot& slot = slots_[device.index()];
      std::lock_guard lk(slot.mutex);
      resident = slot.resident.get();
    }
    if (resident == nullptr) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "key " + name() + " is not loaded on " + device.label() +
                                                     ": key_load it with that gpu_index, or with -1 for every device");
    }
    auto op = std::make_unique<Op>(device, std::static_pointer_cast<CudaKey>(shared_from_this()), std::move(cpu_op),
                                   ctx.options.verify);
    auto job = op->job;
    device.in_flight.fetch_add(1);
    device.started.fetch_add(1);
    lane.post([this, &device, &lane, resident, curve_op, job, &ctx](const Lane::Scratch& s) {
      run(device, lane, *resident, *curve_op, *job, s, ctx);
    });
    return op;
  }

 private:
  // The key's sections on one device.
  struct Resident {
    Resident(const DeviceSlot& device, const groth16::ProvingKey<E>& pk, const ProverOptions& options)
        : a(device.ordinal(), pk.a(), detail::msm_config(options)),
          b1(device.ordinal(), pk.b1(), detail::msm_config(options)),
          c(device.ordinal(), pk.c(), detail::msm_config(options)),
          h(device.ordinal(), pk.h(), detail::msm_config(options)) {
      if (options.g2 == Placement::device) {
        b2 = std::make_unique<ResidentMsm<G2>>(device.ordinal(), pk.b2(), detail::msm_config(options));
      }
#ifdef ZKPIPE_CUDA_HAVE_HSTEP
      // One H step per lane: with c = a∘b each run uses the object's own c scratch.
      if (options.h == Placement::device) {
        std::size_t log_n = 0;
        while ((std::size_t{1} << log_n) < pk.domain_size()) ++log_n;
        for (std::size_t l = 0; l < device.lanes().size(); ++l) {
          h_steps.push_back(std::make_unique<cuda::HStep<Fr>>(device.ordinal(), log_n));
        }
      }
#endif
    }
    ResidentMsm<G1> a, b1, c, h;
    std::unique_ptr<ResidentMsm<G2>> b2;  // with g2=device
#ifdef ZKPIPE_CUDA_HAVE_HSTEP
    std::vector<std::unique_ptr<cuda::HStep<Fr>>> h_steps;
#endif
  };
  struct Slot {
    std::mutex mutex;
    std::unique_ptr<Resident> resident;
  };

  // What the lane hands back to prove_finish.
  struct Job {
    std::promise<void> done;
    groth16::MsmSums<E> sums;
    StageTimes times;
    detail::Clock::time_point queued = detail::Clock::now();
  };

  class Op final : public OpBase {
   public:
    Op(DeviceSlot& device, std::shared_ptr<CudaKey> key, std::unique_ptr<zkp_prove_op_t> cpu_op, bool verify)
        : OpBase(device), key_(std::move(key)), cpu_op_(std::move(cpu_op)), verify_(verify), job(std::make_shared<Job>()),
          done_(job->done.get_future()) {}
    // The lane reads this op's inputs until it is done; an op dropped early (a failed
    // prove_finish) waits for it rather than free what the lane reads.
    ~Op() override {
      if (done_.valid()) done_.wait();
    }

    void finish(zkp_prove_output_t& out, StageTimes* times) override {
      key_->finish(*this, out, times);
    }

    std::shared_ptr<CudaKey> key_;
    std::unique_ptr<zkp_prove_op_t> cpu_op_;
    const bool verify_;
    std::shared_ptr<Job> job;
    std::future<void> done_;
  };

  static std::string precompute_text(const ProverOptions& o) {
    return o.msm_precompute == 0 ? "all" : std::to_string(o.msm_precompute);
  }

  static std::span<const Int> witness_of(const cpu::CurveOp<E>& op) {
    if (op.synthesis != nullptr) return op.synthesis->data.witness;
    return op.assignment;
  }

  // H on the odd coset with the CPU core, written as standard-form scalars to `out`.
  void host_h(cpu::CurveOp<E>& op, std::uint8_t* out, ThreadPool& pool) const {
    std::vector<Fr> a, b, c;
    if (op.synthesis != nullptr) {
      a = op.synthesis->data.a;  // copies: the synthesis stays the host's
      b = op.synthesis->data.b;
    } else {
      a = std::move(op.a);
      b = std::move(op.b);
      c = std::move(op.c);
    }
    groth16::h_evaluations_in_place<Fr>(a, b, c, pk().domain(), pool);
    pool.parallel_for(a.size(), groth16::kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) {
        const Int v = a[i].to_bigint();
        std::memcpy(out + i * sizeof(Int), v.limbs.data(), sizeof(Int));
      }
    });
  }

  // The device H step, queued on the lane's stream: a, b (and a caller's c) → pinned → device,
  // then cuda::HStep leaves H in standard form in device_h, ready for msm H once h_ready fires.
  void queue_device_h([[maybe_unused]] Resident& r, [[maybe_unused]] const Lane& lane, const cpu::CurveOp<E>& op,
                      const Lane::Scratch& s, ThreadPool& staging) const {
    std::span<const Fr> a, b, c;
    if (op.synthesis != nullptr) {
      a = op.synthesis->data.a;
      b = op.synthesis->data.b;
    } else {
      a = op.a;
      b = op.b;
      c = op.c;
    }
    const cudaStream_t st = s.stream->get();
    s.h_start->record(st);
    const auto upload = [&](std::span<const Fr> v, std::uint8_t* pinned, std::uint8_t* device) {
      if (!v.empty()) staged_upload(staging, v.data(), pinned, device, v.size_bytes(), st);
    };
    upload(a, s.pinned_h, s.device_h);
    upload(b, s.pinned_b, s.device_b);
    upload(c, s.pinned_c, s.device_c);
    s.h_uploaded->record(st);
#ifdef ZKPIPE_CUDA_HAVE_HSTEP
    Fr* dc = op.synthesis != nullptr ? nullptr : reinterpret_cast<Fr*>(s.device_c);
    r.h_steps.at(lane.index())
        ->run(reinterpret_cast<Fr*>(s.device_h), reinterpret_cast<Fr*>(s.device_b), dc, a.size(), st, cuda::HForm::standard);
#else
    throw sdk::Error(ZKP_ERR_UNSUPPORTED, "h=device: this build has no device H step");
#endif
    s.h_ready->record(st);
  }

  // The lane's job. Never throws: the outcome goes to job.done.
  void run(DeviceSlot& device, Lane& lane, Resident& r, cpu::CurveOp<E>& op, Job& job, const Lane::Scratch& s,
           const Context& ctx) const noexcept {
    const auto t_lane = detail::Clock::now();
    StageTimes& t = job.times;
    t.queue_ms = std::chrono::duration<double, std::milli>(t_lane - job.queued).count();
    const char* stage = "setup";
    try {
      std::string why;
      if (device.lost(&why)) throw sdk::Error(ZKP_ERR_DEVICE, "the device is unusable after an earlier fault: " + why);
      DeviceGuard guard(device.ordinal());
      if (s.stream == nullptr || s.pinned_witness == nullptr) {
        throw sdk::Error(ZKP_ERR_INTERNAL, "the lane has no scratch (key_load reserves it)");
      }
      const std::span<const Int> w = witness_of(op);
      const std::size_t n = w.size(), n_c = n - pk().n_public() - 1, domain = pk().domain_size();
      const cudaStream_t st = s.stream->get();

      stage = "witness upload";
      s.start->record(st);
      staged_upload(*ctx.staging, w.data(), s.pinned_witness, s.device_witness, w.size_bytes(), st);
      s.witness_ready->record(st);

      // Host stages, overlapped with the device MSMs below. A future of std::async joins in
      // its destructor, so an exception here never leaves a task reading freed inputs.
      // Host stages, overlapped with the device MSMs below. A future of std::async joins in
      // its destructor, so an exception here never leaves a task reading freed inputs.
      t.g2_on_host = ctx.options.g2 == Placement::host;
      t.h_on_host = ctx.options.h == Placement::host;
      std::future<Affine<G2>> g2;
      if (t.g2_on_host) {
        const std::size_t threads = ctx.options.host_threads != 0 ? ctx.options.host_threads : ThreadPool::hardware_threads();
        g2 = std::async(std::launch::async, [&, threads] {
          const auto t0 = detail::Clock::now();
          const auto bytes = std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(w.data()), w.size_bytes());
          const Affine<G2> sum = zkp::msm::msm<G2>(pk().b2(), bytes, zkp::msm::Options{threads, 0});
          t.msm_b2_ms = detail::ms_since(t0);
          return sum;
        });
      }
      std::future<void> h;
      if (t.h_on_host) {
        h = std::async(std::launch::async, [&] {
          const auto t0 = detail::Clock::now();
          host_h(op, s.pinned_h, ctx.cpu.pool);
          t.h_ms = detail::ms_since(t0);
        });
      }

      // Every section MSM on its own stream, behind the witness upload on the lane stream.
      // Sections are taken in the order A, B1, B2, C, H by every lane (see resident_msm.hpp).
      // msm_order=concurrent queues them all at once; sequential collects each before the
      // next is queued (the device H step, queued first, overlaps msm A).
      const bool one_at_a_time = ctx.options.msm_order == MsmOrder::sequential;
      const auto collect = [&stage](auto& ticket, auto& sum, double& out_ms, const char* name) {
        stage = name;
        float ms = 0;
        sum = ticket.result(ms);
        out_ms = ms;
      };
      const std::uint8_t* dw = s.device_witness;
      if (one_at_a_time && !t.h_on_host) {
        stage = "H step (device)";
        queue_device_h(r, lane, op, s, *ctx.staging);
      }
      stage = "msm A";
      auto ta = r.a.enqueue(dw, n, st);
      if (one_at_a_time) collect(ta, job.sums.a, t.msm_a_ms, "msm A");
      stage = "msm B1";
      auto tb1 = r.b1.enqueue(dw, n, st);
      if (one_at_a_time) collect(tb1, job.sums.b1, t.msm_b1_ms, "msm B1");
      stage = "msm B2";
      typename ResidentMsm<G2>::Ticket tb2;
      if (!t.g2_on_host) {
        tb2 = r.b2->enqueue(dw, n, st);
        if (one_at_a_time) collect(tb2, job.sums.b2, t.msm_b2_ms, "msm B2");
      }
      stage = "msm C";
      auto tc = r.c.enqueue(dw + (std::size_t{pk().n_public()} + 1) * ZKP_SCALAR_SIZE, n_c, st);
      if (one_at_a_time) collect(tc, job.sums.c, t.msm_c_ms, "msm C");
      typename ResidentMsm<G1>::Ticket th;
      if (!t.h_on_host) {
        if (!one_at_a_time) {
          stage = "H step (device)";
          queue_device_h(r, lane, op, s, *ctx.staging);
        }
        stage = "msm H";
        th = r.h.enqueue(s.device_h, domain, st);
      }

      if (!one_at_a_time) {
        collect(ta, job.sums.a, t.msm_a_ms, "msm A");
        collect(tb1, job.sums.b1, t.msm_b1_ms, "msm B1");
        if (!t.g2_on_host) collect(tb2, job.sums.b2, t.msm_b2_ms, "msm B2");
        collect(tc, job.sums.c, t.msm_c_ms, "msm C");
      }
      if (t.h_on_host) {
        stage = "H step (host)";
        h.get();
        stage = "H upload";
        s.h_start->record(st);
        ZKP_CUDA_CHECK(cudaMemcpyAsync(s.device_h, s.pinned_h, domain * ZKP_SCALAR_SIZE, cudaMemcpyHostToDevice, st));
        s.h_uploaded->record(st);
        s.h_ready->record(st);
        stage = "msm H";
        th = r.h.enqueue(s.device_h, domain, st);
      }
      collect(th, job.sums.h, t.msm_h_ms, "msm H");
      if (t.g2_on_host) {
        stage = "msm B2 (host)";
        job.sums.b2 = g2.get();
      }

      stage = "timing";
      // Every MSM has been collected (its device work is done), so an event on the lane
      // stream now, behind the uploads and the H step, marks the end of the proof's device work.
      s.end->record(st);
      s.end->synchronize();
      t.span_ms = s.end->elapsed_ms_since(*s.start);
      t.upload_ms = s.witness_ready->elapsed_ms_since(*s.start) + s.h_uploaded->elapsed_ms_since(*s.h_start);
      if (!t.h_on_host) t.h_ms = s.h_ready->elapsed_ms_since(*s.h_uploaded);
      t.lane_ms = detail::ms_since(t_lane);
      device.in_flight.fetch_sub(1);
      job.done.set_value();
    } catch (...) {
      device.in_flight.fetch_sub(1);
      job.done.set_exception(describe(std::current_exception(), device, lane, stage, ctx));
    }
  }

  // Whether a device's context is unusable after an error: sticky errors (an illegal
  // address, a launch failure) come back from every later call. `wait`: synchronise the
  // device (the one that failed: its own queued work must surface); else a non-blocking
  // probe (creating an event), for devices that may be busy with healthy work.
  static bool context_broken(const DeviceSlot& device, bool wait) noexcept {
    try {
      DeviceGuard guard(device.ordinal());
      cudaGetLastError();
      if (wait) return cudaDeviceSynchronize() != cudaSuccess;
      cudaEvent_t probe = nullptr;
      if (cudaEventCreateWithFlags(&probe, cudaEventDisableTiming) != cudaSuccess) return true;
      cudaEventDestroy(probe);
      return false;
    } catch (...) {
      return true;  // the device cannot even be selected
    }
  }

  // The exception of a failed job, as an sdk::Error naming the device, worker and stage. A
  // CUDA error that leaves the context broken (sticky) marks the device lost, and every
  // other device whose context it broke too: the CUDA runtime may take the whole process
  // down with one device's fault (H200, CUDA 13: it does; docs/PERF.md), and then only a
  // new process can use any device again.
  static std::exception_ptr describe(std::exception_ptr e, DeviceSlot& device, Lane& lane, const char* stage,
                                     const Context& ctx) noexcept {
    try {
      try {
        std::rethrow_exception(e);
      } catch (const CudaError& err) {
        std::string what = lane.name() + ", " + stage + ": " + err.what();
        if (err.status() == ZKP_ERR_DEVICE && context_broken(device, true)) {
          device.mark_lost(what);
          std::string others;
          for (DeviceSlot* d : ctx.devices) {
            if (d == &device || d->lost() || !context_broken(*d, false)) continue;
            d->mark_lost("the CUDA runtime reports the fault of " + device.label() + " here too: " + err.what());
            others += (others.empty() ? "" : ", ") + std::to_string(d->index());
          }
          what += others.empty() ? "; the device is unusable in this process from now on"
                                 : "; the fault broke the CUDA runtime of this process: devices " +
                                       std::to_string(device.index()) + ", " + others +
                                       " are unusable until the process restarts";
        }
        throw sdk::Error(err.status(), what);
      } catch (const sdk::Error& err) {
        throw sdk::Error(err.status(), lane.name() + ", " + stage + ": " + err.what());
      } catch (const std::bad_alloc&) {
        throw sdk::Error(ZKP_ERR_OUT_OF_MEMORY, lane.name() + ", " + stage + ": out of host memory");
      } catch (const std::exception& err) {
        throw sdk::Error(ZKP_ERR_INTERNAL, lane.name() + ", " + stage + ": " + err.what());
      }
    } catch (...) {
      return std::current_exception();
    }
  }

  void finish(Op& op, zkp_prove_output_t& out, StageTimes* times) const {
    constexpr std::size_t kProofSize = groth16::kProofBytes<E>;
    auto& cop = dynamic_cast<cpu::CurveOp<E>&>(*op.cpu_op_);
    const std::size_t public_size = std::size_t{pk().n_public()} * ZKP_SCALAR_SIZE;
    out.proof_size = kProofSize;
    out.public_size = public_size;
    if (out.proof_capacity < kProofSize || out.public_capacity < public_size || out.proof == nullptr ||
        (out.public_inputs == nullptr && public_size != 0)) {
      throw sdk::Error(ZKP_ERR_SHORT_BUFFER, "prove_finish needs " + std::to_string(kProofSize) + " proof bytes and " +
                                                 std::to_string(public_size) + " public-input bytes; the output has " +
                                                 std::to_string(out.proof_capacity) + " and " +
                                                 std::to_string(out.public_capacity));
    }
    op.done_.get();  // rethrows the lane's error
    Job& job = *op.job;
    const auto t0 = detail::Clock::now();
    const groth16::Proof<E> proof = groth16::epilogue<E>(pk(), job.sums, cop.r, cop.s);
    const std::span<const Int> witness = witness_of(cop);
    if (op.verify_) {
      const groth16::VerifyResult v = groth16::verify<E>(pk().verifying_key(), witness.subspan(1, pk().n_public()), proof);
      if (!v.ok()) {
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "the proof from " + op.device().label() + " does not verify (" +
                                                          v.message() + "): the witness does not satisfy the circuit of " +
                                                          name());
      }
    }
    groth16::write_proof<E>(proof, std::span<std::uint8_t, kProofSize>(out.proof, kProofSize));
    groth16::write_public_inputs<Int>(witness, pk().n_public(), {out.public_inputs, public_size});
    job.times.epilogue_ms = detail::ms_since(t0);
    const auto ns = [](double ms) { return static_cast<std::uint64_t>(ms * 1e6); };
    out.gpu_index = static_cast<std::int32_t>(op.device().index());
    out.gpu_duration_ns = ns(job.times.span_ms);
    out.epilogue_ns = ns(job.times.epilogue_ms);
    out.msm_ns = ns(job.times.msm_ms());
    out.ntt_ns = ns(job.times.h_ms);
    if (times != nullptr) *times = job.times;
  }

  std::unique_ptr<cpu::CurveKey<E>> key_;
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace zkp::cuda::prover
