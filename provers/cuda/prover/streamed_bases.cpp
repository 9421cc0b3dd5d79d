#include "streamed_bases.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "core/ec/zcash_encoding.hpp"
#include "cuda/util/bit_reverse_scatter.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/error.hpp"
#include "cuda/util/stream.hpp"

namespace zkp::cuda::prover {

template <CurveParams C>
typename cuda::Msm<C>::Fill streamed_query(const bellperson::ParamsFile& file, const bellperson::Extent& where,
                                           PointCheck check, ThreadPool& pool, std::string what,
                                           unsigned bit_reversed_log_m) {
  using Base = zkp::msm::Base<C>;
  return [&file, where, check, &pool, what = std::move(what), bit_reversed_log_m](Base* table, cudaStream_t stream) {
    const std::uint64_t count = where.bytes / zcash::kUncompressedBytes<C>;
    const std::uint64_t piece = std::min(file.piece_points(), count);
    if (piece == 0) return;
    PinnedBuffer<Base> staging(2 * piece);
    DeviceBuffer<Base> scratch(bit_reversed_log_m > 0 ? 2 * piece : 0);
    std::array<Event, 2> copied{Event(cudaEventDisableTiming), Event(cudaEventDisableTiming)};
    std::array<bool, 2> in_use{false, false};
    std::uint64_t k = 0;
    // Whatever happens, the copies out of `staging` and the scatters out of `scratch` end
    // before they are freed: a bad point ends the stream while a copy may be in flight.
    struct Drain {
      cudaStream_t s;
      ~Drain() { cudaStreamSynchronize(s); }
    } drain{stream};
    file.stream<C>(
        where, {std::span<Base>(staging.data(), piece), std::span<Base>(staging.data() + piece, piece)}, check, pool, what,
        [&](std::uint64_t first, std::span<const Base> decoded) {
          const std::size_t b = k++ % 2;
          if (bit_reversed_log_m > 0) {
            Base* up = scratch.data() + b * piece;
            ZKP_CUDA_CHECK(cudaMemcpyAsync(up, decoded.data(), decoded.size_bytes(), cudaMemcpyHostToDevice, stream));
            scatter_bit_reversed(up, table, first, decoded.size(), bit_reversed_log_m, sizeof(Base), stream);
          } else {
            ZKP_CUDA_CHECK(
                cudaMemcpyAsync(table + first, decoded.data(), decoded.size_bytes(), cudaMemcpyHostToDevice, stream));
          }
          copied[b].record(stream);
          in_use[b] = true;
          // The next piece is decoded into the other buffer: its copy (of the piece before
          // this one) must be done. It ran under this piece's decode, so this rarely waits.
          if (in_use[1 - b]) copied[1 - b].synchronize();
        });
    ZKP_CUDA_CHECK(cudaStreamSynchronize(stream));  // a failed copy reports here, not in ~Drain
  };
}

template <CurveParams C>
typename cuda::Msm<C>::Fill staged_host_fill(std::span<const zkp::msm::Base<C>> bases, ThreadPool& pool) {
  using Base = zkp::msm::Base<C>;
  return [bases, &pool](Base* table, cudaStream_t stream) {
    constexpr std::size_t kPieceBytes = std::size_t{32} << 20;
    const std::size_t piece = std::min(bases.size(), std::max<std::size_t>(1, kPieceBytes / sizeof(Base)));
    if (piece == 0) return;
    PinnedBuffer<Base> staging(2 * piece);
    std::array<Event, 2> copied{Event(cudaEventDisableTiming), Event(cudaEventDisableTiming)};
    std::array<bool, 2> in_use{false, false};
    struct Drain {  // the copies out of `staging` end before it is freed, whatever happens
      cudaStream_t s;
      ~Drain() { cudaStreamSynchronize(s); }
    } drain{stream};
    for (std::size_t first = 0, k = 0; first < bases.size(); first += piece, ++k) {
      const std::size_t b = k % 2, count = std::min(piece, bases.size() - first);
      if (in_use[b]) copied[b].synchronize();  // the copy two pieces back, out of this buffer
      Base* const to = staging.data() + b * piece;
      pool.parallel_for(count, std::size_t{1} << 14, [&](std::size_t begin, std::size_t end) {
        std::memcpy(static_cast<void*>(to + begin), bases.data() + first + begin, (end - begin) * sizeof(Base));
      });
      ZKP_CUDA_CHECK(cudaMemcpyAsync(table + first, to, count * sizeof(Base), cudaMemcpyHostToDevice, stream));
      copied[b].record(stream);
      in_use[b] = true;
    }
    ZKP_CUDA_CHECK(cudaStreamSynchronize(stream));  // a failed copy reports here, not in ~Drain
  };
}

template cuda::Msm<bn254::G1>::Fill staged_host_fill<bn254::G1>(std::span<const zkp::msm::Base<bn254::G1>>, ThreadPool&);
template cuda::Msm<bn254::G2>::Fill staged_host_fill<bn254::G2>(std::span<const zkp::msm::Base<bn254::G2>>, ThreadPool&);
template cuda::Msm<bls12_381::G1>::Fill staged_host_fill<bls12_381::G1>(std::span<const zkp::msm::Base<bls12_381::G1>>,
                                                                        ThreadPool&);
template cuda::Msm<bls12_381::G2>::Fill staged_host_fill<bls12_381::G2>(std::span<const zkp::msm::Base<bls12_381::G2>>,
                                                                        ThreadPool&);

template cuda::Msm<bls12_381::G1>::Fill streamed_query<bls12_381::G1>(const bellperson::ParamsFile&,
                                                                      const bellperson::Extent&, PointCheck, ThreadPool&,
                                                                      std::string, unsigned);
template cuda::Msm<bls12_381::G2>::Fill streamed_query<bls12_381::G2>(const bellperson::ParamsFile&,
                                                                      const bellperson::Extent&, PointCheck, ThreadPool&,
                                                                      std::string, unsigned);

}  // namespace zkp::cuda::prover
