// ProofStages<PK, Input>: the device pipeline of one proof, run on its lane's thread (lane.hpp)
// with the lane's device selected: upload → sections → H → collect. PK is the key kind
// (key_kind.hpp), Input its backend's checked proof input.
//
//   lane stream:   witness → pinned → device ─┬─ (h=device) a, b → device → H step ─┐
//   section MSMs:  A, B1, (B2), C, each on its own stream ───────────────────────────┴─ H
//   host threads:  (h=host) H step → pinned → device, then msm H
//                  (g2=host) G2 MSM ΣB2 on the CPU cores
//
// Every section MSM is queued behind the lane stream (cuda::Msm::enqueue_device), so the
// device runs them with each other and with the H step; the host stages run meanwhile. The two
// msm_order settings are two orderings of the same steps: concurrent queues every section and
// then collects them; sequential collects each before queuing the next (the device H step,
// queued first, overlaps msm A). Sections are taken in the order A, B1, B2, C, H by every lane
// (resident_msm.hpp: no deadlock). When a section is large enough for the compacted MSM path
// (from 2^22 scalars: queuing it waits for its selection), concurrent queues the sections from
// a thread of its own while the lane thread stages the device H step. The five sums go to
// prove_finish's epilogue.
//
// A bellperson key (key_kind.hpp) differs in three places: its a and b scalars are gathered
// by the densities on the device, from the uploaded assignment into the lane's a/b query
// regions (A, B1, B2 read them; C, its l, reads the aux of the witness as for a zkey);
// its H step is bellperson's (the device's HStep::run_coset_quotient, which leaves the
// coefficients bit-reversed for the permuted h query, or the host's); and msm H takes m − 1.
//
// With synthesis=device a synthesis is the witness alone (its a, b and c empty): the H step
// evaluates them on the device from the key's constraint system (cuda/synth) into the buffers
// the uploads fill otherwise; for a bellperson key's circuit, C·w too, and a·b = c checked there,
// a failing row reported as the host's check names it.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <span>
#include <vector>

#include "core/backend/proof_input.hpp"
#include "cuda/util/device_guard.hpp"
#include "device_fault.hpp"
#include "core/groth16/h_polynomial.hpp"
#include "core/groth16/prover.hpp"
#include "cuda/util/input_checks.hpp"
#include "density_region.hpp"
#include "key_state.hpp"
#include "core/bellperson/prover.hpp"
#include "core/msm/msm.hpp"
#include "key_kind.hpp"
#include "resident_key.hpp"
#include "staging.hpp"

namespace zkp::cuda::prover {

namespace detail {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace detail

// What the lane hands back to prove_finish.
template <PairingEngine E>
struct ProofJob {
  std::promise<void> done;
  groth16::MsmSums<E> sums;
  DeviceStageTimes times;
  detail::Clock::time_point queued = detail::Clock::now();
};

template <class PK, class Input>
class ProofStages {
 public:
  using E = typename PK::Engine;
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;
  using Sections = typename ResidentKey<PK>::Sections;
  static constexpr bool kBellperson = kBellpersonKey<PK>;
  static_assert(sizeof(Int) == ZKP_SCALAR_SIZE, "MSM scalars are the ABI's 32-byte scalars");

  explicit ProofStages(const PK& pk) : pk_(pk) {}

  // The lane's job. Never throws: the outcome goes to job.done.
  void run(DeviceSlot& device, Lane& lane, Sections& r, Input& in, ProofJob<E>& job,
           const Lane::Scratch& s, const Context& ctx) const noexcept {
    const auto t_lane = detail::Clock::now();
    DeviceStageTimes& t = job.times;
    t.queue_ms = std::chrono::duration<double, std::milli>(t_lane - job.queued).count();
    const char* stage = "setup";
    try {
      std::string why;
      if (device.lost(&why)) {
        throw sdk::Error(ZKP_ERR_DEVICE_LOST, "the device is unusable after an earlier fault: " + why);
      }
      DeviceGuard guard(device.ordinal());
      if (s.stream == nullptr || s.pinned_witness == nullptr) {
        throw sdk::Error(ZKP_ERR_INTERNAL, "the lane has no scratch (key_load reserves it)");
      }
      const std::span<const Int> w = in.witness();
      bool device_checks = false;  // a caller's Montgomery synthesis, checked on the device
      // The witness alone, its rows checked on the device against the circuit's C: a bellperson
      // key's synthesis=device, or a zkey's given with its circuit (key option r1cs).
      bool device_synthesis = false;
      if constexpr (kBellperson) {
        device_checks = in.checks_on_device();
        device_synthesis = in.abc_on_device();
      } else {
        device_synthesis = in.a().empty() && in.b().empty() && r.sparse != nullptr && r.sparse->has_c();
      }
      const std::size_t n = device_checks ? pk_.n_vars() : w.size(), n_c = n - pk_.n_public() - 1;
      const cudaStream_t st = s.stream->get();
      if (device_checks && (ctx.options.h == Placement::host || ctx.options.g2 == Placement::host)) {
        throw sdk::Error(ZKP_ERR_INTERNAL, "input left to device checks with a host stage (h or g2 = host)");
      }
      if (device_synthesis && ctx.options.h == Placement::host) {
        throw sdk::Error(ZKP_ERR_INTERNAL, "a synthesis without a, b, c with the H step on the host");
      }

      // The scalars of A, B1 and B2: the witness as it is (a zkey), or gathered by the densities
      // on the device (bellperson); the host G2 MSM (g2=host) gathers its own.
      UninitializedVector<Int> b_host;
      if constexpr (kBellperson) {
        if (ctx.options.g2 == Placement::host) {
          stage = "density gather (host, for g2=host)";
          b_host = bellperson::query_scalars(w, pk_.num_inputs(), in.b_input(), in.b_aux(), ctx.pool);
        }
      }
      const std::span<const Int> w_ab = kBellperson ? std::span<const Int>(b_host) : w;

      stage = "witness upload";
      s.start->record(st);
      if (device_checks) {
        upload_raw_assignment(in, s, *ctx.staging, st);
      } else {
        staged_upload(*ctx.staging, w.data(), s.pinned_witness, s.device_witness, w.size_bytes(), st);
      }
      const std::uint8_t* da = s.device_witness;
      const std::uint8_t* db = s.device_witness;
      std::size_t n_a = n, n_b = n;
      if constexpr (kBellperson) {
        stage = "density gather (device)";
        gather_query_scalars(in, s, st);
        da = s.device_a_scalars;
        db = s.device_b_scalars;
        n_a = pk_.a_size();  // the host copies may be gone (host_bases=drop)
        n_b = pk_.b_count();
      }
      s.witness_ready->record(st);

      // Host stages, overlapped with the device MSMs below. A future of std::async joins in
      // its destructor, so an exception here never leaves a task reading freed inputs.
      t.g2_on_host = ctx.options.g2 == Placement::host;
      t.h_on_host = ctx.options.h == Placement::host;
      std::future<Affine<G2>> g2;
      if (t.g2_on_host) {
        // On the G2 pool the prover starts once with g2=host (cuda_prover.cpp says why it is
        // not the main pool): no threads are started per proof.
        g2 = std::async(std::launch::async, [&] {
          const auto t0 = detail::Clock::now();
          const auto bytes =
              std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(w_ab.data()), w_ab.size_bytes());
          zkp::msm::Options msm_options;
          msm_options.pool = ctx.g2;
          const Affine<G2> sum = zkp::msm::msm<G2>(pk_.b2(), bytes, msm_options);
          t.msm_b2_ms = detail::ms_since(t0);
          return sum;
        });
      }
      std::future<void> h;
      if (t.h_on_host) {
        h = std::async(std::launch::async, [&] {
          const auto t0 = detail::Clock::now();
          host_h(in, s.pinned_h, ctx.pool);
          t.h_ms = detail::ms_since(t0);
        });
      }

      // The witness sections: each a step that queues its MSM and one that collects it.
      const std::uint8_t* dw = s.device_witness;
      std::size_t h_count = 0;  // m (a zkey's odd coset) or m − 1 (bellperson)
      if constexpr (kBellperson) {
        h_count = pk_.h_size();
      } else {
        h_count = pk_.h().size();
      }
      typename ResidentMsm<G1>::Ticket ta, tb1, tc, th;
      typename ResidentMsm<G2>::Ticket tb2;
      const auto collect = [&stage](auto& ticket, auto& sum, double& out_ms, const char* name) {
        stage = name;
        float ms = 0;
        sum = ticket.result(ms);
        out_ms = ms;
      };
      // Each witness section: a step that queues its MSM behind the lane stream, the same
      // behind an event (queued from another thread), and one that collects it.
      struct Step {
        const char* name;
        std::function<void()> enqueue;
        std::function<void(cudaEvent_t)> enqueue_after;
        std::function<void()> collect;
      };
      std::vector<Step> steps = {
          {"msm A", [&] { ta = r.a.enqueue(da, n_a, st); }, [&](cudaEvent_t e) { ta = r.a.enqueue_after(da, n_a, e); },
           [&] { collect(ta, job.sums.a, t.msm_a_ms, "msm A"); }},
          {"msm B1", [&] { tb1 = r.b1.enqueue(db, n_b, st); }, [&](cudaEvent_t e) { tb1 = r.b1.enqueue_after(db, n_b, e); },
           [&] { collect(tb1, job.sums.b1, t.msm_b1_ms, "msm B1"); }},
      };
      if (!t.g2_on_host) {
        steps.push_back({"msm B2", [&] { tb2 = r.b2->enqueue(db, n_b, st); },
                         [&](cudaEvent_t e) { tb2 = r.b2->enqueue_after(db, n_b, e); },
                         [&] { collect(tb2, job.sums.b2, t.msm_b2_ms, "msm B2"); }});
      }
      const std::uint8_t* dw_c = dw + (std::size_t{pk_.n_public()} + 1) * ZKP_SCALAR_SIZE;
      steps.push_back({"msm C", [&] { tc = r.c.enqueue(dw_c, n_c, st); }, [&](cudaEvent_t e) { tc = r.c.enqueue_after(dw_c, n_c, e); },
                       [&] { collect(tc, job.sums.c, t.msm_c_ms, "msm C"); }});

      const bool sequential = ctx.options.msm_order == MsmOrder::sequential;
      const auto device_h = [&] {
        stage = "H step (device)";
        queue_device_h(r, lane, in, s, *ctx.staging);
      };
      // Sections large enough for the compacted MSM path wait on the host for their selection
      // (cuda/msm/trivial.cuh), and the device H step's staging of a, b, c blocks the host for
      // as long; concurrently, the sections are then queued from a thread of their own, behind
      // the witness_ready event, while this thread stages the H step.
      const bool queue_aside = !sequential && !t.h_on_host && std::max({n_a, n_b, n_c}) >= msm::kCompactFrom;
      if (queue_aside) {
        // Joined before anything it writes goes out of scope (a future of std::async joins in
        // its destructor), and before msm H, which every lane takes after C.
        std::future<void> queued = std::async(std::launch::async, [&steps, ready = s.witness_ready->get()] {
          for (const Step& step : steps) step.enqueue_after(ready);
        });
        device_h();
        stage = "queuing the section MSMs";
        queued.get();
      } else {
        if (sequential && !t.h_on_host) device_h();
        for (const Step& step : steps) {
          stage = step.name;
          step.enqueue();
          if (sequential) step.collect();
        }
        if (!t.h_on_host && !sequential) device_h();
      }
      if (!t.h_on_host) {
        stage = "msm H";
        th = r.h.enqueue(s.device_h, h_count, st);
      }
      if (!sequential) {
        for (const Step& step : steps) step.collect();
      }
      if (t.h_on_host) {
        stage = "H step (host)";
        h.get();
        stage = "H upload";
        s.h_start->record(st);
        ZKP_CUDA_CHECK(cudaMemcpyAsync(s.device_h, s.pinned_h, h_count * ZKP_SCALAR_SIZE, cudaMemcpyHostToDevice, st));
        s.h_uploaded->record(st);
        s.h_ready->record(st);
        stage = "msm H";
        th = r.h.enqueue(s.device_h, h_count, st);
      }
      collect(th, job.sums.h, t.msm_h_ms, "msm H");
      if (t.g2_on_host) {
        stage = "msm B2 (host)";
        job.sums.b2 = g2.get();
      }

      stage = "timing";
      // Every MSM has been collected (its device work is done), so an event on the lane
      // stream now, behind the uploads and the H step, marks the end of the proof's device work.
      std::size_t checks_at = 0;
      if (device_checks || device_synthesis) {
        checks_at = checks_offset(s);
        ZKP_CUDA_CHECK(cudaMemcpyAsync(s.pinned_density + checks_at, s.device_density + checks_at,
                                       DensityRegion::kCheckWords * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, st));
      }
      s.end->record(st);
      s.end->synchronize();
      if (device_checks || device_synthesis) {
        stage = "input checks (device)";
        report_device_checks(in, reinterpret_cast<const std::uint64_t*>(s.pinned_density + checks_at),
                             device_synthesis ? &r.sparse->circuit() : nullptr);
      }
      t.span_ms = s.end->elapsed_ms_since(*s.start);
      t.upload_ms = s.witness_ready->elapsed_ms_since(*s.start) + s.h_uploaded->elapsed_ms_since(*s.h_start);
      if (!t.h_on_host) t.h_ms = s.h_ready->elapsed_ms_since(*s.h_uploaded);
      t.lane_ms = detail::ms_since(t_lane);
      device.in_flight.fetch_sub(1);
      job.done.set_value();
    } catch (...) {
      device.in_flight.fetch_sub(1);
      job.done.set_exception(classify_failure(std::current_exception(), device, lane, stage, ctx.devices));
    }
  }

 private:
  // The lane's density region laid out for this (bellperson) key (density_region.hpp).
  DensityRegion density_region(const Lane::Scratch& s) const
    requires kBellperson
  {
    const std::uint64_t n_in = pk_.num_inputs();
    const DensityRegion r = DensityRegion::for_key(n_in, pk_.n_vars() - n_in);
    if (r.bytes > s.density_bytes) throw sdk::Error(ZKP_ERR_INTERNAL, "the lane's density region is smaller than the key's");
    return r;
  }

  // A caller's Montgomery assignment (checks_on_device), inputs then aux, up as it is; then on
  // the device: each value below r, to standard form in place (cuda/util/input_checks.hpp).
  // The first bad index lands in the check words, reset here for this proof.
  void upload_raw_assignment(const Input& in, const Lane::Scratch& s, ThreadPool& staging, cudaStream_t st) const {
    if constexpr (kBellperson) {
      auto* checks = reinterpret_cast<std::uint64_t*>(s.device_density + density_region(s).checks);
      ZKP_CUDA_CHECK(cudaMemsetAsync(checks, 0xff, DensityRegion::kCheckWords * sizeof(std::uint64_t), st));
      const std::size_t in_bytes = in.raw_inputs().size_bytes();
      staged_upload(staging, in.raw_inputs().data(), s.pinned_witness, s.device_witness, in_bytes, st);
      staged_upload(staging, in.raw_aux().data(), s.pinned_witness + in_bytes, s.device_witness + in_bytes,
                    in.raw_aux().size_bytes(), st);
      cuda::montgomery_to_standard_checked(reinterpret_cast<Fr*>(s.device_witness), pk_.n_vars(), checks, st);
    }
  }

  // Where the lane's check words lie (DensityRegion): behind a bellperson key's bitmaps, or
  // alone in a zkey's lane (checks_only).
  std::size_t checks_offset(const Lane::Scratch& s) const {
    if constexpr (kBellperson) {
      return density_region(s).checks;
    } else {
      if (s.density_bytes < DensityRegion::kCheckWords * sizeof(std::uint64_t)) {
        throw sdk::Error(ZKP_ERR_INTERNAL, "the lane has no room for the device checks (key_load reserves it)");
      }
      return 0;
    }
  }

  // What the device checks found, in the words of the host's (core/backend/external_input.hpp,
  // the r1cs check): a value not below r first (the assignment, then a, b, c), then a row with
  // a·b ≠ c. `circuit`: the r1cs the rows were evaluated from (synthesis=device), whose
  // constraint r row r is (the rows past its constraints hold whatever the witness); null for
  // a caller's synthesis.
  void report_device_checks(const Input& in, const std::uint64_t* found, const std::string* circuit) const {
    const auto not_below = [](const std::string& what) {
      return sdk::Error(ZKP_ERR_BAD_INPUT, what + " is not below the scalar field prime");
    };
    if constexpr (kBellperson) {
      if (const std::uint64_t i = found[0]; i != kNoIndex) {
        const std::uint64_t n_in = pk_.num_inputs();
        throw not_below(i >= n_in && in.split_assignment() ? "aux_assignment[" + std::to_string(i - n_in) + "]"
                                                            : "assignment[" + std::to_string(i) + "]");
      }
    }
    const char* names[] = {"a", "b", "c"};
    for (std::size_t k = 0; k < 3; ++k) {
      if (const std::uint64_t i = found[1 + RowCheckIndices::a + k]; i != kNoIndex) {
        throw not_below(std::string(names[k]) + "[" + std::to_string(i) + "]");
      }
    }
    if (const std::uint64_t i = found[1 + RowCheckIndices::row]; i != kNoIndex) {
      if (circuit != nullptr) {
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS,
                         "the witness does not satisfy constraint " + std::to_string(i) + " of " + *circuit);
      }
      throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "a·b != c at row " + std::to_string(i) + " of the caller's synthesis");
    }
  }

  // A bellperson proof's a and b query scalars, gathered on the device from the uploaded
  // witness (cuda/util/bitmap_gather.hpp): a takes every input and the aux its bitmap marks,
  // b the inputs and aux theirs mark. The bitmaps go up through the lane's density region; the
  // counts were checked against the key's query lengths by prove_start.
  void gather_query_scalars(const Input& in, const Lane::Scratch& s, cudaStream_t st) const {
    const std::uint64_t n_in = pk_.num_inputs(), n_aux = pk_.n_vars() - n_in;
    const DensityRegion r = density_region(s);
    const auto put = [&](const bellperson::Density& d, std::size_t offset) {
      auto* words = reinterpret_cast<std::uint64_t*>(s.pinned_density + offset);
      for (std::uint64_t k = 0; k < bellperson::Density::words_for(d.bit_len()); ++k) words[k] = d.word(k);
      return reinterpret_cast<const std::uint64_t*>(s.device_density + offset);
    };
    const std::uint64_t* b_input = put(in.b_input(), r.b_input);
    const std::uint64_t* a_aux = put(in.a_aux(), r.a_aux);
    const std::uint64_t* b_aux = put(in.b_aux(), r.b_aux);
    ZKP_CUDA_CHECK(cudaMemcpyAsync(s.device_density, s.pinned_density, r.scratch, cudaMemcpyHostToDevice, st));
    void* scratch = s.device_density + r.scratch;
    const std::uint8_t* aux = s.device_witness + n_in * ZKP_SCALAR_SIZE;
    ZKP_CUDA_CHECK(cudaMemcpyAsync(s.device_a_scalars, s.device_witness, n_in * ZKP_SCALAR_SIZE, cudaMemcpyDeviceToDevice, st));
    gather_by_bitmap(aux, a_aux, n_aux, s.device_a_scalars + n_in * ZKP_SCALAR_SIZE, scratch, r.scratch_bytes, st);
    const std::uint64_t b_inputs = in.b_input().popcount();
    gather_by_bitmap(s.device_witness, b_input, n_in, s.device_b_scalars, scratch, r.scratch_bytes, st);
    gather_by_bitmap(aux, b_aux, n_aux, s.device_b_scalars + b_inputs * ZKP_SCALAR_SIZE, scratch, r.scratch_bytes, st);
  }

  // The H MSM's scalars with the CPU core, standard form, to `out`: H on the odd coset (a zkey)
  // or bellperson's m − 1 coefficients.
  void host_h(Input& in, std::uint8_t* out, ThreadPool& pool) const {
    if constexpr (kBellperson) {
      bellperson::ProveInput work = in.take_work_buffers();
      const UninitializedVector<Int> h = bellperson::h_scalars(pk_, work, pool);
      std::memcpy(out, h.data(), h.size() * sizeof(Int));
    } else {
      groth16::ProveInput<Fr> work = in.take_work_buffers(pool);
      groth16::h_evaluations_in_place<Fr>(work.a, work.b, work.c, pk_.domain(), pool);
      groth16::to_standard_form<Fr>(work.a, reinterpret_cast<Int*>(out), pool);
    }
  }

  // The device H step, queued on the lane's stream: a, b (and a caller's c) → pinned → device,
  // then cuda::HStep leaves H in standard form in device_h, ready for msm H once h_ready fires.
  void queue_device_h(Sections& r, const Lane& lane, const Input& in, const Lane::Scratch& s,
                      ThreadPool& staging) const {
    const std::span<const Fr> a = in.a(), b = in.b(), c = in.c();
    const cudaStream_t st = s.stream->get();
    s.h_start->record(st);
    if constexpr (kBellperson) {
      Fr* const da = reinterpret_cast<Fr*>(s.device_h);
      Fr* const db = reinterpret_cast<Fr*>(s.device_b);
      Fr* const dc = reinterpret_cast<Fr*>(s.device_c);
      auto* checks = reinterpret_cast<std::uint64_t*>(s.device_density + checks_offset(s));
      std::size_t rows = a.size();
      if (in.abc_on_device()) {
        // The witness alone (synthesis=device): A·w, B·w, C·w from the circuit and the witness the
        // upload stage put on the device, then a·b = c row by row as the host's synthesis checks.
        if (r.sparse == nullptr || !r.sparse->has_c()) {
          throw sdk::Error(ZKP_ERR_INTERNAL, "a synthesis without a, b, c on a device holding no circuit");
        }
        ZKP_CUDA_CHECK(cudaMemsetAsync(checks, 0xff, DensityRegion::kCheckWords * sizeof(std::uint64_t), st));
        r.sparse->evaluate_abc(reinterpret_cast<const Fr*>(s.device_witness), da, db, dc, st);
        rows = r.sparse->domain_size();
      } else {
        staged_upload(staging, a.data(), s.pinned_h, s.device_h, a.size_bytes(), st);
        staged_upload(staging, b.data(), s.pinned_b, s.device_b, b.size_bytes(), st);
        staged_upload(staging, c.data(), s.pinned_c, s.device_c, c.size_bytes(), st);
      }
      if (in.checks_on_device() || in.abc_on_device()) cuda::check_rows(da, db, dc, rows, checks + 1, st);
      s.h_uploaded->record(st);
      r.h_steps.at(lane.index())->run_coset_quotient(da, db, dc, rows, st);
    } else {
      bool c_evaluated = false;
      if (a.empty() && b.empty()) {
        // A witness-only synthesis (synthesis=device): A·w and B·w from the witness the witness
        // upload stage put on the device, into the buffers the uploads fill otherwise; with the
        // circuit, C·w too and a·b = c checked row by row (the r1cs check), c then the H step's
        // (equal to a∘b wherever the check passes).
        if (r.sparse == nullptr) {
          throw sdk::Error(ZKP_ERR_INTERNAL, "a synthesis without a and b on a device holding no constraint system");
        }
        const auto* w = reinterpret_cast<const Fr*>(s.device_witness);
        Fr* const da = reinterpret_cast<Fr*>(s.device_h);
        Fr* const db = reinterpret_cast<Fr*>(s.device_b);
        if (r.sparse->has_c()) {
          auto* checks = reinterpret_cast<std::uint64_t*>(s.device_density + checks_offset(s));
          Fr* const dc = reinterpret_cast<Fr*>(s.device_c);
          ZKP_CUDA_CHECK(cudaMemsetAsync(checks, 0xff, DensityRegion::kCheckWords * sizeof(std::uint64_t), st));
          r.sparse->evaluate_abc(w, da, db, dc, st);
          cuda::check_rows(da, db, dc, r.sparse->domain_size(), checks + 1, st);
          c_evaluated = true;
        } else {
          r.sparse->evaluate_ab(w, da, db, st);
        }
      }
      const auto upload = [&](std::span<const Fr> v, std::uint8_t* pinned, std::uint8_t* device) {
        if (!v.empty()) staged_upload(staging, v.data(), pinned, device, v.size_bytes(), st);
      };
      upload(a, s.pinned_h, s.device_h);
      upload(b, s.pinned_b, s.device_b);
      upload(c, s.pinned_c, s.device_c);
      s.h_uploaded->record(st);
      Fr* dc = c.empty() && !c_evaluated ? nullptr : reinterpret_cast<Fr*>(s.device_c);
      const std::size_t n = a.empty() ? std::size_t{pk_.domain_size()} : a.size();
      r.h_steps.at(lane.index())
          ->run(reinterpret_cast<Fr*>(s.device_h), reinterpret_cast<Fr*>(s.device_b), dc, n, st, cuda::HForm::standard);
    }
    s.h_ready->record(st);
  }


  const PK& pk_;
};

}  // namespace zkp::cuda::prover
