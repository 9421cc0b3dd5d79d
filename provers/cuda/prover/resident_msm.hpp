// ResidentMsm: one MSM base section of a key on one device (a cuda::Msm: bases and their
// precomputed copies resident, and its workspace: scratch and stream), shared by the device's
// lanes. A proof enqueues all its sections at once and then collects them: with a workspace
// per section they run concurrently, with one workspace for all (msm_scratch=shared, the
// Filecoin sizes) one after another in the order queued. cuda::Msm serves one call at a time,
// so each section has its own lock (a binary semaphore: a proof may queue its sections from one
// thread and collect them from another), taken in the same order (A, B1, B2, C, H) by every
// lane, hence no deadlock: lanes of one device pipeline through the sections without a second
// copy of the bases, and nothing is shared between devices.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <semaphore>
#include <optional>
#include <span>
#include <utility>

#include "cuda/msm/msm.hpp"
#include "cuda/msm/scratch_layout.hpp"
#include "cuda/msm/workspace.hpp"
#include "cuda/util/error.hpp"

namespace zkp::cuda::prover {

template <CurveParams C>
class ResidentMsm {
 public:
  using Base = zkp::msm::Base<C>;

  // Where the bases come from: a fill that writes n bases into the device table itself (a
  // bellperson query streamed from its file, or bases in host memory staged through pinned
  // pieces: streamed_bases.hpp).
  struct Source {
    static Source streamed(std::size_t n, typename cuda::Msm<C>::Fill fill) { return {n, std::move(fill)}; }

    std::size_t n = 0;
    typename cuda::Msm<C>::Fill fill;
    std::size_t size() const { return n; }
  };

  // Puts the source's bases on CUDA device `ordinal` (the caller has selected it). Empty: no
  // MSM. workspace null: one of its own.
  ResidentMsm(int ordinal, const Source& source, const msm::Config& config, std::shared_ptr<MsmWorkspace> workspace) {
    if (source.size() == 0) return;
    msm_.emplace(ordinal, source.n, source.fill, config, std::move(workspace));
  }

  // One MSM in flight on this section: queued by enqueue(), collected by result(). Holds the
  // section's mutex from enqueue to result (cuda::Msm runs one call at a time); dropped without
  // result() (an exception elsewhere in the proof), it still waits for the MSM, so the section
  // is free for the next proof.
  class Ticket {
   public:
    Ticket() = default;
    Ticket(Ticket&& o) noexcept
        : owner_(std::exchange(o.owner_, nullptr)), held_(std::exchange(o.held_, false)),
          pending_(std::exchange(o.pending_, false)) {}
    Ticket& operator=(Ticket&& o) noexcept {
      if (this != &o) {
        drop();
        owner_ = std::exchange(o.owner_, nullptr);
        held_ = std::exchange(o.held_, false);
        pending_ = std::exchange(o.pending_, false);
      }
      return *this;
    }
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket() { drop(); }
    // Σ s_i·P_i; `ms` receives the MSM's device time.
    Affine<C> result(float& ms) {
      ms = 0;
      if (!pending_) return Affine<C>::identity();
      pending_ = false;
      const Affine<C> r = owner_->msm_->finish();
      ms = owner_->msm_->last_phase_times().total_ms;
      release();
      return r;
    }

   private:
    friend class ResidentMsm;
    void drop() noexcept {
      if (pending_) {
        pending_ = false;
        try {
          owner_->msm_->finish();
        } catch (...) {  // the proof already failed; its error is the one reported
        }
      }
      release();
    }
    void release() noexcept {
      if (held_) owner_->free_.release();
      held_ = false;
    }

    ResidentMsm* owner_ = nullptr;
    bool held_ = false;  // this ticket holds the section
    bool pending_ = false;
  };

  // Queues Σ s_i·P_i over the n scalars at device_scalars on this section's stream, behind
  // everything queued so far on `producer` (the lane stream that uploaded or computed them),
  // and returns at once. Blocks only while another lane's MSM holds the section.
  Ticket enqueue(const std::uint8_t* device_scalars, std::size_t n, cudaStream_t producer) {
    return queue(n, [&] { msm_->enqueue_device(device_scalars, n, producer); });
  }
  // The same behind `ready` (cuda::Msm::enqueue_device_after).
  Ticket enqueue_after(const std::uint8_t* device_scalars, std::size_t n, cudaEvent_t ready) {
    return queue(n, [&] { msm_->enqueue_device_after(device_scalars, n, ready); });
  }

  // Device bytes of an MSM over n bases with `config`, the estimate key_load checks against
  // the device before uploading: its bases with their copies, and its per-call scratch (sort
  // pairs and CUB's scratch, buckets), which a shared workspace holds once for all sections.
  struct DeviceBytes {
    std::uint64_t table = 0, scratch = 0;
  };
  static DeviceBytes device_bytes(std::size_t n, const msm::Config& config) {
    if (n == 0) return {};
    const msm::Plan p = msm::make_plan(n, static_cast<unsigned>(C::Scalar::kBits), config);
    constexpr std::size_t kXyzzBytes = 4 * sizeof(typename C::Field);
    return {std::uint64_t{n} * p.copies * sizeof(Base), msm::scratch_layout(p, kXyzzBytes).bytes};
  }

 private:
  template <class Enqueue>
  Ticket queue(std::size_t n, Enqueue&& enqueue) {
    Ticket t;
    if (!msm_ || n == 0) return t;
    t.owner_ = this;
    free_.acquire();
    t.held_ = true;  // released by t (result or drop) if the enqueue throws
    enqueue();
    t.pending_ = true;
    return t;
  }

  std::binary_semaphore free_{1};  // the section: one MSM in flight
  std::optional<cuda::Msm<C>> msm_;
};

}  // namespace zkp::cuda::prover
