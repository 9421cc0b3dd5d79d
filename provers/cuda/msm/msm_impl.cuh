// Msm<C>'s implementation: buffers, launch sequence and the host-side combination. Included
// only by the per-curve instantiation files (msm_bn254.cu, msm_bls12_381.cu), so each curve
// compiles in its own translation unit.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda/ec/curves.cuh"
#include "cuda/msm/accumulate.cuh"
#include "cuda/msm/bucket_sum.cuh"
#include "cuda/msm/combine.hpp"
#include "cuda/msm/digits.cuh"
#include "cuda/msm/msm.hpp"
#include "cuda/msm/precompute.cuh"
#include "cuda/msm/scratch_layout.hpp"
#include "cuda/msm/sort.hpp"
#include "cuda/msm/trivial.cuh"
#include "cuda/msm/workspace.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "core/ec/xyzz.hpp"

namespace zkp::cuda {

namespace msm::detail {

inline unsigned blocks_for(std::size_t threads, unsigned block) {
  return static_cast<unsigned>((threads + block - 1) / block);
}

}  // namespace msm::detail

template <CurveParams C>
struct Msm<C>::Impl {
  using DXyzz = Xyzz<C>;
  using DPoint = PointXY<C>;
  using HXyzz = zkp::Xyzz<C>;

  struct PieceBuffers {
    DeviceBuffer<std::uint32_t> keys;  // a level's output: 2 per segment (none on the final level)
    DeviceBuffer<DXyzz> pieces;
  };

  int gpu;
  msm::Plan plan;
  std::shared_ptr<MsmWorkspace> workspace;  // the stream, and the per-call scratch (layout)
  msm::ScratchLayout layout;
  DeviceBuffer<DPoint> table;
  DeviceBuffer<std::uint8_t> scalars;   // run()'s host scalars, allocated at its first call
  DeviceBuffer<std::uint32_t> nonzero;  // M, written by the digit kernel
  msm::ReductionShape shape;
  PieceBuffers pieces0;               // level 0's output
  std::vector<PieceBuffers> levels;   // levels ≥ 1, one per shape.levels entry
  std::array<DeviceBuffer<DXyzz>, 2> tree;
  // The compacted path (msm/trivial.cuh), allocated when N ≥ compact_from: the ±1 sum's
  // per-thread partials (a pairwise tree, two levels of buffer), the selected count on the
  // device and its copy for the host.
  std::size_t compact_from;
  std::uint32_t unit_threads = 0;
  std::array<DeviceBuffer<DXyzz>, 2> units;
  DeviceBuffer<std::uint32_t> selected;
  PinnedBuffer<std::uint32_t> selected_host;
  Event selected_ready{cudaEventDisableTiming};
  PinnedBuffer<HXyzz> group_sums;    // the G group sums, copied back asynchronously
  // Stage boundaries of a run: start, digits, sort, level 0, levels ≥ 1, end.
  std::array<Event, 6> marks;
  Event scalars_ready{cudaEventDisableTiming};  // recorded on a producer stream
  msm::PhaseTimes phases;
  bool in_flight = false;  // enqueued, finish() not yet called
  std::size_t pending_n = 0;

  Impl(int gpu_index, std::size_t n, const Fill& fill, const msm::Config& config, std::shared_ptr<MsmWorkspace> shared)
      : gpu(gpu_index),
        plan(msm::make_plan(n, static_cast<unsigned>(C::Scalar::kBits), config)),
        workspace(shared ? std::move(shared) : std::make_shared<MsmWorkspace>(gpu_index)),
        layout(msm::scratch_layout(plan, sizeof(DXyzz))),
        compact_from(config.compact_from) {
    static_assert(sizeof(DPoint) == sizeof(zkp::msm::Base<C>), "bases upload as bytes");
    if (workspace->gpu_index() != gpu) throw std::invalid_argument("cuda msm: the workspace is on another device");
    const cudaStream_t s = workspace->stream();
    workspace->reserve(layout.bytes);
    table = DeviceBuffer<DPoint>(n * plan.copies);
    if (n != 0) {
      fill(reinterpret_cast<zkp::msm::Base<C>*>(table.data()), s);
      if (plan.copies > 1) {
        msm::precompute_kernel<C><<<msm::detail::blocks_for(n, msm::kPrecomputeThreads), msm::kPrecomputeThreads, 0, s>>>(
            table.data(), static_cast<std::uint32_t>(n), plan.c, plan.copies);
        ZKP_CUDA_CHECK_LAUNCH("precompute_kernel");
      }
    }
    nonzero = DeviceBuffer<std::uint32_t>(1);
    plan_reduction();
    for (auto& t : tree) t = DeviceBuffer<DXyzz>(std::size_t{plan.groups} * shape.chunks);
    group_sums = PinnedBuffer<HXyzz>(plan.groups);
    if (n >= compact_from) plan_compaction();
    ZKP_CUDA_CHECK(cudaStreamSynchronize(s));  // the table is complete before the constructor returns
  }

  // This call's scratch in the workspace (resolved per call: a sibling may have grown it).
  std::uint32_t* keys(int b) const { return reinterpret_cast<std::uint32_t*>(workspace->data() + layout.keys[b]); }
  std::uint32_t* refs(int b) const { return reinterpret_cast<std::uint32_t*>(workspace->data() + layout.refs[b]); }
  DXyzz* buckets() const { return reinterpret_cast<DXyzz*>(workspace->data() + layout.buckets); }

  // Level 0 gets as many segments as the GPU holds threads of accumulate_kernel, so one
  // wave covers the whole sort (msm::make_reduction_shape).
  void plan_reduction() {
    int sms = 0, per_sm = 0;
    ZKP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
    ZKP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, msm::accumulate_kernel<C>,
                                                                 msm::kAccumulateThreads, 0));
    const std::size_t resident = std::size_t(std::max(sms, 1)) * std::max(per_sm, 1) * msm::kAccumulateThreads;
    shape = msm::make_reduction_shape(plan, resident);
    const auto alloc = [](std::uint32_t segments) {
      return PieceBuffers{DeviceBuffer<std::uint32_t>(2 * std::size_t{segments}), DeviceBuffer<DXyzz>(2 * std::size_t{segments})};
    };
    if (!shape.levels.empty()) pieces0 = alloc(shape.segments0);
    for (const msm::PieceLevel& lv : shape.levels) levels.push_back(lv.final ? PieceBuffers{} : alloc(lv.segments));
  }

  // One resident wave of unit_sum_kernel threads, each with a partial sum.
  void plan_compaction() {
    int sms = 0, per_sm = 0;
    ZKP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
    ZKP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, msm::unit_sum_kernel<C, DeviceField<typename C::Scalar>>, msm::kUnitSumThreads, 0));
    unit_threads = static_cast<std::uint32_t>(std::max(sms, 1) * std::max(per_sm, 1) * msm::kUnitSumThreads);
    for (auto& u : units) u = DeviceBuffer<DXyzz>(unit_threads);
    selected = DeviceBuffer<std::uint32_t>(1);
    selected_host = PinnedBuffer<std::uint32_t>(1);
  }

  // The compacted path's first steps: flags, the selected indices (in refs(1)) and their count
  // m, and the ±1 scalars' sum in units[result]. Waits for m (the sort's length is a host
  // argument); the device meanwhile sums the ±1 scalars.
  std::uint32_t select_general(const std::uint8_t* d_scalars, std::size_t n, cudaStream_t s, int& unit_result) {
    using Fr = DeviceField<typename C::Scalar>;
    const auto* sc = reinterpret_cast<const uint4*>(d_scalars);
    const auto n32 = static_cast<std::uint32_t>(n);
    msm::classify_kernel<Fr><<<msm::detail::blocks_for(n, msm::kClassifyThreads), msm::kClassifyThreads, 0, s>>>(sc, n32, keys(1));
    ZKP_CUDA_CHECK_LAUNCH("classify_kernel");
    msm::select_flagged(keys(1), n, refs(1), selected.data(), workspace->data() + layout.sort, layout.sort_bytes, s);
    ZKP_CUDA_CHECK(cudaMemcpyAsync(selected_host.data(), selected.data(), sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s));
    selected_ready.record(s);
    msm::unit_sum_kernel<C, Fr><<<msm::detail::blocks_for(unit_threads, msm::kUnitSumThreads), msm::kUnitSumThreads, 0, s>>>(
        sc, n32, table.data(), unit_threads, units[0].data());
    ZKP_CUDA_CHECK_LAUNCH("unit_sum_kernel");
    int cur = 0;
    for (std::uint32_t width = unit_threads; width > 1; width = (width + 1) / 2, cur ^= 1) {
      msm::pairwise_sum_kernel<C><<<msm::detail::blocks_for((width + 1) / 2, msm::kBucketThreads), msm::kBucketThreads, 0, s>>>(
          units[cur].data(), width, 1, units[cur ^ 1].data());
      ZKP_CUDA_CHECK_LAUNCH("pairwise_sum_kernel (±1 scalars)");
    }
    unit_result = cur;
    selected_ready.synchronize();
    return *selected_host.data();
  }

  msm::RunSink<C> sink(std::uint32_t* piece_keys, DXyzz* pieces, bool final) {
    return {buckets(), static_cast<std::uint32_t>(plan.buckets()), piece_keys, pieces, final};
  }

  // Queues one MSM on this object's stream. With a producer stream: behind the producer's
  // queued work, and the producer then waits for the digit kernel (the scalars' last read).
  // With a ready event instead: behind that event, and nothing waits for the MSM.
  void enqueue(const std::uint8_t* d_scalars, std::size_t n, const cudaStream_t* producer,
               cudaEvent_t ready = nullptr) {
    if (in_flight) throw std::logic_error("cuda msm: enqueue while an MSM is in flight (call finish() first)");
    if (n > plan.bases) throw std::invalid_argument("cuda msm: " + std::to_string(n) + " scalars for " +
                                                    std::to_string(plan.bases) + " bases");
    if (n != 0 && reinterpret_cast<std::uintptr_t>(d_scalars) % alignof(uint4) != 0)
      throw std::invalid_argument("cuda msm: device scalars must be 16-byte aligned");
    DeviceGuard guard(gpu);
    cudaStream_t s = workspace->stream();
    std::lock_guard launches(workspace->launch_mutex());
    if (n == 0) {
      in_flight = true;
      pending_n = 0;
      return;
    }
    if (producer != nullptr) {
      scalars_ready.record(*producer);
      ZKP_CUDA_CHECK(cudaStreamWaitEvent(s, scalars_ready.get(), 0));
    }
    if (ready != nullptr) ZKP_CUDA_CHECK(cudaStreamWaitEvent(s, ready, 0));
    const bool compact = n >= compact_from && unit_threads != 0;

    marks[0].record(s);
    nonzero.fill_zero(s);
    ZKP_CUDA_CHECK(cudaMemsetAsync(buckets(), 0, plan.buckets() * sizeof(DXyzz), s));
    // Kernel template arguments are spelled without Impl's private aliases: nvcc's host
    // stubs name them from outside the class.
    std::size_t m = n;  // scalars whose digits go to the sort
    int unit_result = 0;
    if (compact) {
      m = select_general(d_scalars, n, s, unit_result);
      if (m != 0) {
        msm::selected_digits_kernel<DeviceField<typename C::Scalar>><<<msm::detail::blocks_for(m, msm::kDigitThreads), msm::kDigitThreads, 0, s>>>(
            reinterpret_cast<const uint4*>(d_scalars), refs(1), msm::digit_shape(plan, m), keys(0), refs(0), nonzero.data());
        ZKP_CUDA_CHECK_LAUNCH("selected_digits_kernel");
      }
    } else {
      msm::signed_digits_kernel<DeviceField<typename C::Scalar>><<<msm::detail::blocks_for(n, msm::kDigitThreads), msm::kDigitThreads, 0, s>>>(
          reinterpret_cast<const uint4*>(d_scalars), msm::digit_shape(plan, n), keys(0), refs(0), nonzero.data());
      ZKP_CUDA_CHECK_LAUNCH("signed_digits_kernel");
    }
    marks[1].record(s);
    if (producer != nullptr) ZKP_CUDA_CHECK(cudaStreamWaitEvent(*producer, marks[1].get(), 0));

    const std::size_t items = m * plan.windows;
    const int sorted = items == 0 ? 0
                                  : msm::sort_pairs({keys(0), keys(1)}, {refs(0), refs(1)}, items, plan.key_bits(),
                                                    workspace->data() + layout.sort, layout.sort_bytes, s);
    marks[2].record(s);

    const bool final0 = shape.levels.empty();
    msm::accumulate_kernel<C><<<msm::detail::blocks_for(shape.segments0, msm::kAccumulateThreads), msm::kAccumulateThreads, 0, s>>>(
        keys(sorted), refs(sorted), table.data(), nonzero.data(), shape.segments0,
        sink(pieces0.keys.data(), pieces0.pieces.data(), final0));
    ZKP_CUDA_CHECK_LAUNCH("accumulate_kernel");
    marks[3].record(s);

    const std::uint32_t* in_keys = pieces0.keys.data();
    const DXyzz* in_pieces = pieces0.pieces.data();
    for (std::size_t k = 0; k < shape.levels.size(); ++k) {
      const msm::PieceLevel& lv = shape.levels[k];
      PieceBuffers& out = levels[k];
      msm::reduce_pieces_kernel<C><<<msm::detail::blocks_for(lv.segments, msm::kPieceThreads), msm::kPieceThreads, 0, s>>>(
          in_keys, in_pieces, lv.count, lv.len, lv.segments, sink(out.keys.data(), out.pieces.data(), lv.final));
      ZKP_CUDA_CHECK_LAUNCH("reduce_pieces_kernel");
      in_keys = out.keys.data();
      in_pieces = out.pieces.data();
    }
    if (compact) {
      msm::add_into_bucket_kernel<C><<<1, 1, 0, s>>>(buckets(), units[unit_result].data());
      ZKP_CUDA_CHECK_LAUNCH("add_into_bucket_kernel");
    }
    marks[4].record(s);
    const std::uint32_t groups = plan.groups;
    msm::bucket_chunks_kernel<C><<<msm::detail::blocks_for(std::size_t{groups} * shape.chunks, msm::kBucketThreads),
                                   msm::kBucketThreads, 0, s>>>(buckets(), plan.half, shape.chunk_buckets,
                                                                shape.chunks, groups, tree[0].data());
    ZKP_CUDA_CHECK_LAUNCH("bucket_chunks_kernel");
    int cur = 0;
    for (std::uint32_t width = shape.chunks; width > 1; width = (width + 1) / 2, cur ^= 1) {
      const std::size_t outs = std::size_t{groups} * ((width + 1) / 2);
      msm::pairwise_sum_kernel<C><<<msm::detail::blocks_for(outs, msm::kBucketThreads), msm::kBucketThreads, 0, s>>>(
          tree[cur].data(), width, groups, tree[cur ^ 1].data());
      ZKP_CUDA_CHECK_LAUNCH("pairwise_sum_kernel");
    }
    static_assert(sizeof(DXyzz) == sizeof(HXyzz));
    // Pinned target: the copy is asynchronous, so enqueue returns without waiting.
    ZKP_CUDA_CHECK(cudaMemcpyAsync(group_sums.data(), tree[cur].data(), groups * sizeof(HXyzz), cudaMemcpyDeviceToHost, s));
    marks[5].record(s);
    in_flight = true;
    pending_n = n;
  }

  zkp::Affine<C> finish() {
    if (!in_flight) throw std::logic_error("cuda msm: finish() without an enqueued MSM");
    in_flight = false;
    if (pending_n == 0) return zkp::Affine<C>::identity();
    DeviceGuard guard(gpu);
    marks[5].synchronize();
    phases = {marks[1].elapsed_ms_since(marks[0]), marks[2].elapsed_ms_since(marks[1]),
              marks[3].elapsed_ms_since(marks[2]), marks[4].elapsed_ms_since(marks[3]),
              marks[5].elapsed_ms_since(marks[4]), marks[5].elapsed_ms_since(marks[0])};
    return msm::combine_groups<C>(std::span<const HXyzz>(group_sums.data(), group_sums.size()), plan.c * plan.copies);
  }

  zkp::Affine<C> run_device(const std::uint8_t* d_scalars, std::size_t n) {
    enqueue(d_scalars, n, nullptr);
    return finish();
  }

  zkp::Affine<C> run(std::span<const std::uint8_t> host_scalars) {
    if (host_scalars.size() % zkp::msm::kScalarBytes != 0)
      throw std::invalid_argument("cuda msm: scalar bytes not a multiple of 32");
    const std::size_t n = host_scalars.size() / zkp::msm::kScalarBytes;
    if (n > plan.bases) throw std::invalid_argument("cuda msm: more scalars than bases");
    if (in_flight) throw std::logic_error("cuda msm: run while an MSM is in flight (call finish() first)");
    DeviceGuard guard(gpu);
    if (n != 0) {
      if (scalars.size() < n * zkp::msm::kScalarBytes) scalars = DeviceBuffer<std::uint8_t>(plan.bases * zkp::msm::kScalarBytes);
      scalars.upload(host_scalars, workspace->stream());
    }
    return run_device(scalars.data(), n);
  }
};

template <CurveParams C>
Msm<C>::Msm(int gpu_index, std::span<const zkp::msm::Base<C>> bases, const msm::Config& config,
            std::shared_ptr<MsmWorkspace> workspace) {
  DeviceGuard guard(gpu_index);
  const Fill upload = [bases](zkp::msm::Base<C>* table, cudaStream_t s) {
    ZKP_CUDA_CHECK(cudaMemcpyAsync(table, bases.data(), bases.size_bytes(), cudaMemcpyHostToDevice, s));
  };
  impl_ = std::make_unique<Impl>(gpu_index, bases.size(), upload, config, std::move(workspace));
}
template <CurveParams C>
Msm<C>::Msm(int gpu_index, std::size_t n, const Fill& fill, const msm::Config& config,
            std::shared_ptr<MsmWorkspace> workspace) {
  DeviceGuard guard(gpu_index);
  impl_ = std::make_unique<Impl>(gpu_index, n, fill, config, std::move(workspace));
}
template <CurveParams C>
Msm<C>::~Msm() {
  reset_on_device(impl_);
}
template <CurveParams C>
Msm<C>::Msm(Msm&&) noexcept = default;
template <CurveParams C>
Msm<C>& Msm<C>::operator=(Msm&& other) noexcept {
  if (this != &other) {
    std::unique_ptr<Impl> old = std::exchange(impl_, std::move(other.impl_));
    reset_on_device(old);
  }
  return *this;
}

template <CurveParams C>
const msm::Plan& Msm<C>::plan() const {
  return impl_->plan;
}
template <CurveParams C>
int Msm<C>::gpu_index() const {
  return impl_->gpu;
}
template <CurveParams C>
cudaStream_t Msm<C>::stream() const {
  return impl_->workspace->stream();
}
template <CurveParams C>
void Msm<C>::enqueue_device(const std::uint8_t* device_scalars, std::size_t n, cudaStream_t producer) {
  impl_->enqueue(device_scalars, n, &producer);
}
template <CurveParams C>
void Msm<C>::enqueue_device_after(const std::uint8_t* device_scalars, std::size_t n, cudaEvent_t ready) {
  impl_->enqueue(device_scalars, n, nullptr, ready);
}
template <CurveParams C>
zkp::Affine<C> Msm<C>::finish() {
  return impl_->finish();
}
template <CurveParams C>
bool Msm<C>::pending() const {
  return impl_->in_flight;
}
template <CurveParams C>
msm::PhaseTimes Msm<C>::last_phase_times() const {
  return impl_->phases;
}
template <CurveParams C>
zkp::Affine<C> Msm<C>::run(std::span<const std::uint8_t> scalars) {
  return impl_->run(scalars);
}
template <CurveParams C>
zkp::Affine<C> Msm<C>::run_device(const std::uint8_t* device_scalars, std::size_t n) {
  return impl_->run_device(device_scalars, n);
}

}  // namespace zkp::cuda
