// Multi-scalar multiplication on one GPU with the bases resident: Σ s_i·P_i for G1 and G2
// (Fq2 coordinates) of BN254 and BLS12-381, Pippenger's bucket method with signed windows.
//
//   cuda::Msm<zkp::bn254::G1> msm(gpu_index, bases);   // uploads (and precomputes) once
//   Affine<zkp::bn254::G1> r = msm.run(scalars);       // per call: n·32 bytes of scalars
//
// Bases are zkp::msm::Base<C>, the zkey layout (x, y Montgomery, (0, 0) = infinity), copied
// to the device as they are. Scalars are 32-byte little-endian standard-form integers, any
// 256-bit value (reduced mod r on the device). One call runs, on the device:
//   digits      scalar → signed c-bit digits → (bucket, base) pairs; zeros dropped (from
//               2^22 scalars, 0 and ±1 kept out of the sort and the buckets: msm/trivial.cuh)
//   sort        CUB radix sort of the pairs by bucket
//   accumulate  balanced segmented sums of the sorted runs into XYZZ buckets
//   reduce      each bucket group's Σ (b + 1)·B_b
// and on the host the Horner combination of the G group sums (G·c·F doublings; none when
// F = W). The result is exactly the group element the CPU MSM (provers/core/msm) returns.
//
// Thread-safety: one object serves one call at a time (one stream, shared scratch). Objects
// sharing a workspace may be called from different threads: their launches are queued under
// the workspace's lock, and the device runs them one after another.
// G2 uses the same kernels over Fq2; its results equal the CPU's zkp::msm::msm<G2>.
// Every entry selects its own device (DeviceGuard), whatever the calling thread's current
// device. Errors throw CudaError (cuda/util/error.hpp) or std::invalid_argument.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "cuda/msm/plan.hpp"
#include "cuda/msm/workspace.hpp"
#include "core/ec/affine.hpp"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/msm/msm.hpp"

namespace zkp::cuda {

template <CurveParams C>
class Msm {
 public:
  using Base = zkp::msm::Base<C>;

  // Uploads `bases` to device gpu_index and builds the precomputed copies (config.precompute).
  // Holds device memory for F·N bases; the per-call scratch for N scalars (scratch_layout.hpp)
  // is in `workspace`, which MSMs may share (workspace.hpp: they then run one after another on
  // its stream); none given, the object has a workspace of its own.
  Msm(int gpu_index, std::span<const zkp::msm::Base<C>> bases, const msm::Config& config = {},
      std::shared_ptr<MsmWorkspace> workspace = nullptr);
  // The same with bases that never lie whole in host memory (a bellperson key's queries,
  // streamed from the file: cuda/prover/streamed_bases.hpp): fill(table, stream) writes the n
  // bases into `table` (device memory of gpu_index, the Base layout), queuing whatever it does
  // not finish itself on `stream`, this object's; the precomputed copies are built from them
  // after it returns.
  using Fill = std::function<void(zkp::msm::Base<C>* table, cudaStream_t stream)>;
  Msm(int gpu_index, std::size_t n, const Fill& fill, const msm::Config& config = {},
      std::shared_ptr<MsmWorkspace> workspace = nullptr);
  ~Msm();
  Msm(Msm&&) noexcept;
  Msm& operator=(Msm&&) noexcept;

  const msm::Plan& plan() const;
  int gpu_index() const;
  // The stream every call queues its work on (the workspace's; for callers that time or order
  // around it).
  cudaStream_t stream() const;

  // Σ s_i·P_i for i < n = scalars.size()/32 ≤ N; scalars on the host (pinned memory copies
  // at full bus speed, pageable memory is staged by the driver). Blocks until done.
  zkp::Affine<C> run(std::span<const std::uint8_t> scalars);
  // The same with the scalars already on this object's GPU (n·32 bytes at device_scalars,
  // 16-byte aligned), ordered after nothing but this object's own earlier work: the caller
  // has made sure the scalars are complete. Blocks until done.
  zkp::Affine<C> run_device(const std::uint8_t* device_scalars, std::size_t n);

  // The non-blocking form, for callers that overlap MSMs with each other and with other
  // work. enqueue_device queues the whole MSM on this object's stream behind everything
  // queued so far on `producer` (the stream that wrote the scalars, e.g. the H step's), and
  // returns without waiting. `producer` in turn waits only until the scalars have been
  // read (the digit kernel), not for the MSM: work queued on it afterwards may overwrite
  // them. finish() waits for the MSM and returns its result (a few µs of host work: the
  // Horner combination of the bucket groups). One call in flight per object: a second
  // enqueue_device before finish() throws std::logic_error, as does finish() without one.
  // Objects on the same GPU run concurrently on their own streams.
  void enqueue_device(const std::uint8_t* device_scalars, std::size_t n, cudaStream_t producer);
  // The same behind an event (recorded where the scalars became complete) instead of behind a
  // stream's whole queue, and nothing waits for this MSM: for a caller that keeps queuing other
  // work on the producing stream from another thread meanwhile, and does not overwrite the
  // scalars before finish(). With n ≥ Config::compact_from either form waits on the host for
  // the selection's count (msm/trivial.cuh) before it returns.
  void enqueue_device_after(const std::uint8_t* device_scalars, std::size_t n, cudaEvent_t ready);
  zkp::Affine<C> finish();
  // Whether an enqueued MSM is still in flight (finish() not yet called).
  bool pending() const;

  // Stage times of the last completed run (device time between CUDA events).
  msm::PhaseTimes last_phase_times() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class Msm<zkp::bn254::G1>;
extern template class Msm<zkp::bls12_381::G1>;
extern template class Msm<zkp::bn254::G2>;
extern template class Msm<zkp::bls12_381::G2>;

}  // namespace zkp::cuda
