// ResidentKey<PK>: where a key's device copies live (PK: a zkey's groth16::ProvingKey<E> or a
// bellperson::Key, key_kind.hpp). Per device: the MSM bases of its five
// sections (A, B1, B2, C, H; with their precomputed copies), their MSM scratch (one per section,
// or one shared: option msm_scratch) and one device H step per lane, uploaded once at key_load
// and shared by that device's lanes; with synthesis=device, the key's constraint system as the
// device evaluates it (cuda/synth, built once on the host: a zkey's A and B, or a bellperson key's
// circuit). Before uploading, the estimate of what the bases, the MSM
// scratch and the lanes' scratch take is checked against the device, so a key that cannot fit
// fails with ZKP_ERR_OUT_OF_MEMORY naming the bytes and the options that would help.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/ntt/h_step.hpp"
#include "cuda/synth/evaluate.hpp"
#include "cuda/synth/sparse_system.hpp"
#include "density_region.hpp"
#include "cuda/util/device_guard.hpp"
#include "device_errors.hpp"
#include "device_slot.hpp"
#include "core/groth16/proving_key.hpp"
#include "key_kind.hpp"
#include "options.hpp"
#include "resident_msm.hpp"
#include "streamed_bases.hpp"
#include "core/util/thread_pool.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp::cuda::prover {

namespace detail {

inline std::string bytes_text(std::uint64_t b) {
  return std::to_string(b) + " bytes (" + std::to_string(b >> 20) + " MiB)";
}

inline msm::Config msm_config(const ProverOptions& o) { return {o.msm_window_bits, o.msm_precompute}; }

// The H section's: its scalars are the quotient's coefficients, uniformly random whatever the
// witness, so the compacted path (scalars 0 and ±1 out of the buckets) would only add its
// passes over them.
inline msm::Config h_msm_config(const ProverOptions& o) {
  msm::Config c = msm_config(o);
  c.compact_from = SIZE_MAX;
  return c;
}

inline std::string precompute_text(const ProverOptions& o) {
  return o.msm_precompute == 0 ? "all" : std::to_string(o.msm_precompute);
}

}  // namespace detail

template <class PK>
class ResidentKey {
 public:
  using E = typename PK::Engine;
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  using Fr = typename E::Fr;

  // How long make_resident's parts took on one device (ms), for key_load's log line.
  struct PlaceTimes {
    double h_permute = 0;  // a bellperson key's h reordered on the host for the device H step
    double a = 0, b1 = 0, b2 = 0, c = 0, h = 0;  // each section's upload and precomputation
    double h_steps = 0;    // the lanes' device H steps (their domain tables uploaded)
    double synthesis = 0;  // with synthesis=device: the constraint system's upload

    std::string text() const {
      const auto ms = [](double v) { return std::to_string(static_cast<long long>(v + 0.5)); };
      return "uploads with precomputation A " + ms(a) + " ms, B1 " + ms(b1) + " ms, B2 " + ms(b2) + " ms, C " + ms(c) +
             " ms, H " + ms(h) + " ms; H steps " + ms(h_steps) + " ms" +
             (synthesis > 0 ? "; constraint system " + ms(synthesis) + " ms" : "") +
             (h_permute > 0 ? "; h permuted on the host in " + ms(h_permute) + " ms" : "");
    }
  };

  // Lap times of the sections' construction. Members are initialized in declaration order
  // (a, b1, c, h), so each section's initializer after a's starts by stamping the one before.
  struct Stopwatch {
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    int lap(double& ms) {
      const auto now = std::chrono::steady_clock::now();
      ms = std::chrono::duration<double, std::milli>(now - last).count();
      last = now;
      return 0;
    }
  };

  // The key's sections on one device; shared_scratch: one MSM workspace for all of them.
  // Each section's constructor returns once its table is on the device (precomputed copies
  // included), so the times are the uploads' and the precomputation's wall time.
  struct Sections {
    Sections(const DeviceSlot& device, const PK& pk, const ProverOptions& options, bool shared_scratch, ThreadPool& pool,
             const synth::SparseSystem<Fr>* sparse_host)
        : h_permuted(device_h_order(pk, options, pool, times.h_permute)),
          workspace(shared_scratch ? std::make_shared<MsmWorkspace>(device.ordinal()) : nullptr),
          a(device.ordinal(), source(pk, Query::a, options, pool), detail::msm_config(options), workspace),
          b1(device.ordinal() + watch.lap(times.a), source(pk, Query::b1, options, pool), detail::msm_config(options),
            workspace),
          c(device.ordinal() + watch.lap(times.b1), source(pk, Query::c, options, pool), detail::msm_config(options),
            workspace),
          h(device.ordinal() + watch.lap(times.c),
            h_permuted.empty() ? source(pk, Query::h, options, pool) : staged<G1>(h_permuted, pool),
            detail::h_msm_config(options), workspace) {
      watch.lap(times.h);
      if (options.g2 == Placement::device) {
        b2 = std::make_unique<ResidentMsm<G2>>(device.ordinal(), g2_source(pk, pool), detail::msm_config(options),
                                               workspace);
        watch.lap(times.b2);
      }
      // One H step per lane: with c = a∘b each run uses the object's own c scratch. A bellperson
      // key's is over its own domain (ω from 7, the coset 7·ω^i: HStep::run_coset_quotient).
      if (options.h == Placement::device) {
        using Use = typename cuda::HStep<Fr>::Use;
        for (std::size_t l = 0; l < device.lanes().size(); ++l) {
          const Use use = kBellpersonKey<PK> ? Use::coset_quotient : Use::odd_coset;
          h_steps.push_back(std::make_unique<cuda::HStep<Fr>>(device.ordinal(), pk.domain(), use));
        }
      }
      watch.lap(times.h_steps);
      if (sparse_host != nullptr) sparse = std::make_unique<synth::DeviceSparseSystem<Fr>>(*sparse_host, nullptr);
      watch.lap(times.synthesis);
      HostBases().swap(h_permuted);  // uploaded (`= {}` would keep the capacity: 12 GiB at 2^27)
    }
    // The device H step of a bellperson key leaves H's coefficients in bit-reversed order
    // (HStep::run_coset_quotient), so its h query goes up permuted the same way: position p
    // holds h[bitrev(p)] (p < m − 1; bitrev(p) < m − 1 there). A temporary host copy, written
    // on the pool: 12 GiB of random reads at a 2^27 partition, which one thread took seconds on.
    using HostBases = std::vector<zkp::msm::Base<G1>, UninitializedAllocator<zkp::msm::Base<G1>>>;
    static HostBases permuted_h(const PK& pk, ThreadPool& pool) {
      const std::size_t m = pk.domain_size(), log_m = pk.domain().log_n();
      HostBases out(m - 1);
      const auto h = pk.h();
      pool.parallel_for(m - 1, std::size_t{1} << 16, [&](std::size_t begin, std::size_t end) {
        for (std::size_t p = begin; p < end; ++p) out[p] = h[bit_reverse(p, log_m)];
      });
      return out;
    }
    // Where each G1 section's bases come from: the key's host copy, or a bellperson key's
    // file (host_bases=drop), streamed into the device; h then lands bit-reversed when the
    // device H step needs it so.
    enum class Query { a, b1, c, h };
    static typename ResidentMsm<G1>::Source source(const PK& pk, Query q, const ProverOptions& options, ThreadPool& pool) {
      if constexpr (kBellpersonKey<PK>) {
        if (const bellperson::ParamsFile* file = pk.queries_file()) {
          const bellperson::ParamsLayout& l = file->layout();
          const auto streamed = [&](const bellperson::Extent& e, std::uint64_t n, const char* what, unsigned log_m) {
            return ResidentMsm<G1>::Source::streamed(n, streamed_query<G1>(*file, e, pk.query_check(), pool, what, log_m));
          };
          switch (q) {
            case Query::a: return streamed(l.a, l.a_count, "a", 0);
            case Query::b1: return streamed(l.b_g1, l.b_g1_count, "b_g1", 0);
            case Query::c: return streamed(l.l, l.l_count, "l", 0);
            case Query::h:
              return streamed(l.h, l.h_count, "h",
                              options.h == Placement::device ? static_cast<unsigned>(pk.domain().log_n()) : 0);
          }
        }
      }
      switch (q) {
        case Query::a: return staged<G1>(pk.a(), pool);
        case Query::b1: return staged<G1>(pk.b1(), pool);
        case Query::c: return staged<G1>(pk.c(), pool);
        case Query::h: return staged<G1>(pk.h(), pool);
      }
      return staged<G1>({}, pool);
    }
    // Bases in host memory, copied up through pinned pieces on the pool (staged_host_fill).
    template <CurveParams C>
    static typename ResidentMsm<C>::Source staged(std::span<const zkp::msm::Base<C>> bases, ThreadPool& pool) {
      return ResidentMsm<C>::Source::streamed(bases.size(), staged_host_fill<C>(bases, pool));
    }
    static typename ResidentMsm<G2>::Source g2_source(const PK& pk, ThreadPool& pool) {
      if constexpr (kBellpersonKey<PK>) {
        if (const bellperson::ParamsFile* file = pk.queries_file(); file != nullptr && pk.b2().empty()) {
          const bellperson::ParamsLayout& l = file->layout();
          return ResidentMsm<G2>::Source::streamed(l.b_g2_count,
                                                   streamed_query<G2>(*file, l.b_g2, pk.query_check(), pool, "b_g2", 0));
        }
      }
      return staged<G2>(pk.b2(), pool);
    }

    // The h query in the order the device H step needs, from a bellperson key's host copy:
    // permuted (and `ms` its time); else empty (a zkey's h goes up as it is; a streamed h is
    // scattered on the device).
    static HostBases device_h_order(const PK& pk, const ProverOptions& options, ThreadPool& pool, double& ms) {
      if constexpr (kBellpersonKey<PK>) {
        if (options.h == Placement::device && pk.queries_file() == nullptr) {
          const auto t0 = std::chrono::steady_clock::now();
          HostBases out = permuted_h(pk, pool);
          ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
          return out;
        }
      }
      return {};
    }
    PlaceTimes times;                          // before the sections: their initializers write it
    HostBases h_permuted;                      // a bellperson key's h for the device H step; freed once uploaded
    std::shared_ptr<MsmWorkspace> workspace;  // with msm_scratch shared; else each section has its own
    Stopwatch watch;                           // started just before section a
    ResidentMsm<G1> a, b1, c, h;
    std::unique_ptr<ResidentMsm<G2>> b2;                 // with g2=device
    std::vector<std::unique_ptr<cuda::HStep<Fr>>> h_steps;  // with h=device, one per lane
    std::unique_ptr<synth::DeviceSparseSystem<Fr>> sparse;  // with synthesis=device: A, B (and a circuit's C)
    std::uint64_t device_bytes = 0;  // the estimate make_resident checked (key_info's device_bytes)
  };

  // What builds the key's constraint system as the device evaluates it (synthesis=device: a
  // zkey's A and B, or a bellperson key's circuit, A, B and C), or empty: its syntheses carry
  // their own a and b.
  using SparseBuilder = std::function<synth::SparseSystem<Fr>()>;

  ResidentKey(const PK& pk, std::uint32_t device_count, SparseBuilder build_sparse = {})
      : pk_(pk), slots_(std::make_unique<Slot[]>(device_count)), device_count_(device_count),
        build_sparse_(std::move(build_sparse)) {}

  // The lane scratch one proof of this key needs with these options.
  LaneNeeds lane_needs(const ProverOptions& options) const {
    const std::size_t domain = std::size_t{pk_.domain_size()} * ZKP_SCALAR_SIZE;
    const std::size_t bc = options.h == Placement::device ? domain : 0;
    LaneNeeds needs{std::size_t{pk_.n_vars()} * ZKP_SCALAR_SIZE, domain, bc, bc};
    if constexpr (!kBellpersonKey<PK>) {
      if (build_sparse_) needs.density_bytes = DensityRegion::checks_only().bytes;  // a circuit's check_rows
    }
    if constexpr (kBellpersonKey<PK>) {
      needs.density_bytes = DensityRegion::for_key(pk_.num_inputs(), pk_.n_vars() - pk_.num_inputs()).bytes;
      needs.a_scalar_bytes = pk_.a_size() * ZKP_SCALAR_SIZE;  // lengths: the host copies may be dropped
      needs.b_scalar_bytes = pk_.b_count() * ZKP_SCALAR_SIZE;
    }
    return needs;
  }

  // Estimated device bytes of the sections (this configuration): their bases with copies, and
  // their MSM scratch, summed (a workspace per section) or the largest (one shared).
  struct Footprint {
    std::uint64_t tables = 0, scratch_sum = 0, scratch_max = 0;
    std::uint64_t bytes(bool shared_scratch) const { return tables + (shared_scratch ? scratch_max : scratch_sum); }
  };
  Footprint footprint(const ProverOptions& options) const {
    const msm::Config cfg = detail::msm_config(options);
    Footprint f;
    const auto add = [&f](auto bytes) {
      f.tables += bytes.table;
      f.scratch_sum += bytes.scratch;
      f.scratch_max = std::max(f.scratch_max, bytes.scratch);
    };
    try {
      const SectionSizes n = section_sizes();
      add(ResidentMsm<G1>::device_bytes(n.a, cfg));
      add(ResidentMsm<G1>::device_bytes(n.b1, cfg));
      add(ResidentMsm<G1>::device_bytes(n.c, cfg));
      add(ResidentMsm<G1>::device_bytes(n.h, cfg));
      if (options.g2 == Placement::device) add(ResidentMsm<G2>::device_bytes(n.b2, cfg));
      if (const synth::SparseSystem<Fr>* sparse = sparse_system(options)) f.tables += sparse->device_bytes();
    } catch (const std::invalid_argument& e) {  // make_plan: past the device MSM's 32-bit indices
      throw sdk::Error(ZKP_ERR_UNSUPPORTED, "key " + pk_.name() + " is too large for the device MSM: " + e.what());
    }
    return f;
  }

  // The sections' lengths, whether or not their host copies exist (a streamed bellperson key
  // has none).
  struct SectionSizes {
    std::size_t a = 0, b1 = 0, b2 = 0, c = 0, h = 0;
  };
  SectionSizes section_sizes() const {
    if constexpr (kBellpersonKey<PK>) {
      return {pk_.a_size(), pk_.b_count(), pk_.b_count(), pk_.num_aux(), pk_.h_size()};
    } else {
      return {pk_.a().size(), pk_.b1().size(), pk_.b2().size(), pk_.c().size(), pk_.h().size()};
    }
  }

  // Uploads the sections to `device` unless they are there; returns what it placed, for the
  // log ("" when they were resident already).
  std::string make_resident(DeviceSlot& device, const ProverOptions& options, ThreadPool& pool) {
    Slot& slot = slots_[device.index()];
    std::lock_guard lk(slot.mutex);
    if (slot.sections) return {};
    std::string why;
    if (device.lost(&why)) {
      throw sdk::Error(ZKP_ERR_DEVICE_LOST, device.label() + " is unusable after an earlier fault: " + why);
    }
    const Footprint fp = footprint(options);
    const std::uint64_t scratch = std::uint64_t{lane_needs(options).total()} * device.lanes().size();
    const bool limited = options.device_memory_bytes != 0 && options.device_memory_bytes < device.memory_bytes();
    const std::uint64_t usable = limited ? options.device_memory_bytes : device.memory_bytes();
    const bool shared = options.msm_scratch == MsmScratch::shared ||
                        (options.msm_scratch == MsmScratch::automatic && fp.bytes(false) + scratch > usable);
    const std::uint64_t sections = fp.bytes(shared);  // bases with copies, and the MSM scratch
    if (sections + scratch > usable) {
      throw sdk::Error(ZKP_ERR_OUT_OF_MEMORY,
                       device.label() + ": key " + pk_.name() + " is too large for the device: it needs about " +
                           detail::bytes_text(sections + scratch) + " (resident bases " + detail::bytes_text(fp.tables) +
                           " with msm_precompute=" + detail::precompute_text(options) + ", MSM scratch " +
                           detail::bytes_text(sections - fp.tables) + (shared ? " shared" : " per section") +
                           ", scratch of " + std::to_string(device.lanes().size()) + " workers " +
                           detail::bytes_text(scratch) + "), the device has " + detail::bytes_text(usable) +
                           (limited ? " (device_memory_bytes)" : " in total") + "; a smaller msm_precompute" +
                           (shared ? "" : ", msm_scratch=shared") + " or fewer workers need less");
    }
    DeviceGuard guard(device.ordinal());
    try {
      slot.sections = std::make_unique<Sections>(device, pk_, options, shared, pool, sparse_system(options));
      slot.sections->device_bytes = sections;
    } catch (const CudaError& e) {
      std::size_t free = 0, total = 0;
      cudaMemGetInfo(&free, &total);
      cudaGetLastError();
      throw sdk::Error(status_of(e), device.label() + ": uploading key " + pk_.name() + " (about " +
                                       detail::bytes_text(sections) + " of resident bases and MSM scratch; " +
                                       detail::bytes_text(free) +
                                       " free of " + detail::bytes_text(total) + ") failed: " + e.what());
    }
    const synth::SparseSystem<Fr>* sparse = sparse_system(options);
    return device.label() + ": resident bases " + detail::bytes_text(fp.tables) + " (msm_precompute=" +
           detail::precompute_text(options) + (sparse != nullptr ? "; with the constraint system, " + detail::bytes_text(sparse->device_bytes()) +
                                                                       ", " + std::to_string(sparse->dictionary.size()) + " distinct coefficients"
                                                                 : std::string()) +
           "), MSM scratch " + detail::bytes_text(sections - fp.tables) +
           (shared ? " shared by the sections" : " per section") + " (msm_scratch=" +
           (options.msm_scratch == MsmScratch::automatic ? "auto" : shared ? "shared" : "per_section") + "); " +
           slot.sections->times.text();
  }

  // key_info's device_bytes: the bytes make_resident checked on the first device holding the
  // key (every device makes the same choice unless their memories differ), else the estimate
  // (MSM scratch per section unless msm_scratch=shared).
  std::uint64_t device_bytes(const ProverOptions& options) const {
    for (std::uint32_t i = 0; i < device_count_; ++i) {
      Slot& slot = slots_[i];
      std::lock_guard lk(slot.mutex);
      if (slot.sections != nullptr) return slot.sections->device_bytes;
    }
    return footprint(options).bytes(options.msm_scratch == MsmScratch::shared);
  }

  bool resident_on(std::uint32_t gpu_index) const {
    Slot& slot = slots_[gpu_index];
    std::lock_guard lk(slot.mutex);
    return slot.sections != nullptr;
  }

  // The sections on `device`; ZKP_ERR_INVALID_ARGUMENT if the key was not loaded there.
  Sections& on(const DeviceSlot& device) const {
    Slot& slot = slots_[device.index()];
    std::lock_guard lk(slot.mutex);
    if (slot.sections == nullptr) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "key " + pk_.name() + " is not loaded on " + device.label() +
                                                     ": key_load it with that gpu_index, or with -1 for every device");
    }
    return *slot.sections;
  }

 private:
  struct Slot {
    std::mutex mutex;
    std::unique_ptr<Sections> sections;
  };

  // With synthesis=device, the key's constraint system as the device evaluates it, built on the
  // host at the first make_resident (or footprint) and kept for the devices that load the key
  // later; else null. (The options are the prover's, fixed when the key was read.)
  const synth::SparseSystem<Fr>* sparse_system(const ProverOptions&) const {
    if (!build_sparse_) return nullptr;
    std::lock_guard lk(sparse_mutex_);
    if (!sparse_) sparse_ = std::make_unique<const synth::SparseSystem<Fr>>(build_sparse_());
    return sparse_.get();
  }

  const PK& pk_;
  std::unique_ptr<Slot[]> slots_;
  std::uint32_t device_count_;
  SparseBuilder build_sparse_;
  mutable std::mutex sparse_mutex_;
  mutable std::unique_ptr<const synth::SparseSystem<Fr>> sparse_;  // sparse_system()
};

}  // namespace zkp::cuda::prover
