// ResidentKey<PK>: where a key's device copies live (PK: a zkey's groth16::ProvingKey<E> or a
// bellperson::Key, key_kind.hpp). Per device: the MSM bases of its five
// sections (A, B1, B2, C, H; with their precomputed copies), their MSM scratch (one per section,
// or one shared: option msm_scratch) and one device H step per lane, uploaded once at key_load
// and shared by that device's lanes. Before uploading, the estimate of what the bases, the MSM
// scratch and the lanes' scratch take is checked against the device, so a key that cannot fit
// fails with ZKP_ERR_OUT_OF_MEMORY naming the bytes and the options that would help.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/ntt/h_step.hpp"
#include "density_region.hpp"
#include "cuda/util/device_guard.hpp"
#include "device_errors.hpp"
#include "device_slot.hpp"
#include "core/groth16/proving_key.hpp"
#include "key_kind.hpp"
#include "options.hpp"
#include "resident_msm.hpp"

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

  // The key's sections on one device; shared_scratch: one MSM workspace for all of them.
  struct Sections {
    Sections(const DeviceSlot& device, const PK& pk, const ProverOptions& options, bool shared_scratch)
        : workspace(shared_scratch ? std::make_shared<MsmWorkspace>(device.ordinal()) : nullptr),
          a(device.ordinal(), pk.a(), detail::msm_config(options), workspace),
          b1(device.ordinal(), pk.b1(), detail::msm_config(options), workspace),
          c(device.ordinal(), pk.c(), detail::msm_config(options), workspace),
          h(device.ordinal(), h_bases(pk, options), detail::h_msm_config(options), workspace) {
      if (options.g2 == Placement::device) {
        b2 = std::make_unique<ResidentMsm<G2>>(device.ordinal(), pk.b2(), detail::msm_config(options), workspace);
      }
      // One H step per lane: with c = a∘b each run uses the object's own c scratch. A bellperson
      // key's is over its own domain (ω from 7, the coset 7·ω^i: HStep::run_coset_quotient).
      if (options.h == Placement::device) {
        std::size_t log_n = 0;
        while ((std::size_t{1} << log_n) < pk.domain_size()) ++log_n;
        for (std::size_t l = 0; l < device.lanes().size(); ++l) {
          if constexpr (kBellpersonKey<PK>) {
            h_steps.push_back(std::make_unique<cuda::HStep<Fr>>(device.ordinal(), pk.domain()));
          } else {
            h_steps.push_back(std::make_unique<cuda::HStep<Fr>>(device.ordinal(), log_n));
          }
        }
      }
      h_permuted = {};  // uploaded
    }
    // The device H step of a bellperson key leaves H's coefficients in bit-reversed order
    // (HStep::run_coset_quotient), so its h query goes up permuted the same way: position p
    // holds h[bitrev(p)] (p < m − 1; bitrev(p) < m − 1 there). A temporary host copy.
    static std::vector<zkp::msm::Base<G1>> permuted_h(const PK& pk) {
      const std::size_t m = pk.domain_size(), log_m = pk.domain().log_n();
      std::vector<zkp::msm::Base<G1>> out(m - 1);
      for (std::size_t p = 0; p + 1 < m; ++p) out[p] = pk.h()[bit_reverse(p, log_m)];
      return out;
    }
    std::vector<zkp::msm::Base<G1>> h_permuted;  // empty once uploaded
    std::span<const zkp::msm::Base<G1>> h_bases(const PK& pk, const ProverOptions& options) {
      if constexpr (kBellpersonKey<PK>) {
        if (options.h == Placement::device) {
          h_permuted = permuted_h(pk);
          return h_permuted;
        }
      }
      return pk.h();
    }
    std::shared_ptr<MsmWorkspace> workspace;  // with msm_scratch shared; else each section has its own
    ResidentMsm<G1> a, b1, c, h;
    std::unique_ptr<ResidentMsm<G2>> b2;                 // with g2=device
    std::vector<std::unique_ptr<cuda::HStep<Fr>>> h_steps;  // with h=device, one per lane
  };

  ResidentKey(const PK& pk, std::uint32_t device_count)
      : pk_(pk), slots_(std::make_unique<Slot[]>(device_count)) {}

  // The lane scratch one proof of this key needs with these options.
  LaneNeeds lane_needs(const ProverOptions& options) const {
    const std::size_t domain = std::size_t{pk_.domain_size()} * ZKP_SCALAR_SIZE;
    const std::size_t bc = options.h == Placement::device ? domain : 0;
    LaneNeeds needs{std::size_t{pk_.n_vars()} * ZKP_SCALAR_SIZE, domain, bc, bc};
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
      add(ResidentMsm<G1>::device_bytes(pk_.a().size(), cfg));
      add(ResidentMsm<G1>::device_bytes(pk_.b1().size(), cfg));
      add(ResidentMsm<G1>::device_bytes(pk_.c().size(), cfg));
      add(ResidentMsm<G1>::device_bytes(pk_.h().size(), cfg));
      if (options.g2 == Placement::device) add(ResidentMsm<G2>::device_bytes(pk_.b2().size(), cfg));
    } catch (const std::invalid_argument& e) {  // make_plan: past the device MSM's 32-bit indices
      throw sdk::Error(ZKP_ERR_UNSUPPORTED, "key " + pk_.name() + " is too large for the device MSM: " + e.what());
    }
    return f;
  }

  // Uploads the sections to `device` unless they are there; returns what it placed, for the
  // log ("" when they were resident already).
  std::string make_resident(DeviceSlot& device, const ProverOptions& options) {
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
      slot.sections = std::make_unique<Sections>(device, pk_, options, shared);
    } catch (const CudaError& e) {
      std::size_t free = 0, total = 0;
      cudaMemGetInfo(&free, &total);
      cudaGetLastError();
      throw sdk::Error(status_of(e), device.label() + ": uploading key " + pk_.name() + " (about " +
                                       detail::bytes_text(sections) + " of resident bases and MSM scratch; " +
                                       detail::bytes_text(free) +
                                       " free of " + detail::bytes_text(total) + ") failed: " + e.what());
    }
    return device.label() + ": resident bases " + detail::bytes_text(fp.tables) + " (msm_precompute=" +
           detail::precompute_text(options) + "), MSM scratch " + detail::bytes_text(sections - fp.tables) +
           (shared ? " shared by the sections" : " per section") + " (msm_scratch=" +
           (options.msm_scratch == MsmScratch::automatic ? "auto" : shared ? "shared" : "per_section") + ")";
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

  const PK& pk_;
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace zkp::cuda::prover
