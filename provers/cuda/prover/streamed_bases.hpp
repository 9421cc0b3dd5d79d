// A bellperson key's queries streamed from the parameter file into the device, never whole in
// host memory (option host_bases = drop, the default for bellperson keys).
//
// A 2^27 PoRep file holds 44 GiB of points. Decoding them all into host memory and uploading
// that copy took 100 s of key_load and ~96 GB of peak host RSS (docs/PERF.md, the Filecoin
// path, session 9); the host copy was dropped right after. Streamed, each query goes through
// two pinned pieces of ParamsFile::piece_points() points: the file's next piece is read while
// the pool decodes and checks this one (ParamsFile::stream) into pinned memory, and its copy
// to the device runs under the next decode. Host memory is the two pieces and two file
// buffers (~200 MiB), whatever the key's size.
//
// The h query goes up in file order into a device scratch of two pieces and is scattered to
// the bit-reversed positions the device H step needs (cuda/util/bit_reverse_scatter.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/bellperson/params.hpp"
#include "core/ec/encoding.hpp"
#include "core/util/thread_pool.hpp"
#include "cuda/msm/msm.hpp"

namespace zkp::cuda::prover {

// The fill of a cuda::Msm over the query at `where` of `file` (`what` names it in errors),
// decoded with `check` on `pool`; bit_reversed_log_m > 0: base i goes to position
// bitrev(i) over that many bits (the h query for the device H step), else to position i.
// `file` and `pool` must outlive the Msm's construction. The fill throws what
// ParamsFile::stream throws (FormatError for a bad point, IoError for a file that shrank),
// and CudaError; it returns once every copy has completed.
template <CurveParams C>
typename cuda::Msm<C>::Fill streamed_query(const bellperson::ParamsFile& file, const bellperson::Extent& where,
                                           PointCheck check, ThreadPool& pool, std::string what,
                                           unsigned bit_reversed_log_m = 0);

// The fill of a cuda::Msm from bases already in host memory (a zkey's sections, mapped or in a
// caller's buffer; a bellperson key kept on the host): copied on `pool` into two pinned pieces
// of ~32 MiB in turn, each piece's copy to the device running under the next one's memcpy.
// A plain cudaMemcpy from pageable memory went at 8.5 GB/s on the H200 machine (1.1 s for a 2^24
// BLS12-381 key's sections), one host thread staging it through the driver's own small
// buffers. `bases` and `pool` must outlive the Msm's construction; the fill throws CudaError
// and returns once every copy has completed.
template <CurveParams C>
typename cuda::Msm<C>::Fill staged_host_fill(std::span<const zkp::msm::Base<C>> bases, ThreadPool& pool);

extern template cuda::Msm<bls12_381::G1>::Fill streamed_query<bls12_381::G1>(const bellperson::ParamsFile&,
                                                                             const bellperson::Extent&, PointCheck,
                                                                             ThreadPool&, std::string, unsigned);
extern template cuda::Msm<bls12_381::G2>::Fill streamed_query<bls12_381::G2>(const bellperson::ParamsFile&,
                                                                             const bellperson::Extent&, PointCheck,
                                                                             ThreadPool&, std::string, unsigned);

extern template cuda::Msm<bn254::G1>::Fill staged_host_fill<bn254::G1>(std::span<const zkp::msm::Base<bn254::G1>>,
                                                                       ThreadPool&);
extern template cuda::Msm<bn254::G2>::Fill staged_host_fill<bn254::G2>(std::span<const zkp::msm::Base<bn254::G2>>,
                                                                       ThreadPool&);
extern template cuda::Msm<bls12_381::G1>::Fill staged_host_fill<bls12_381::G1>(
    std::span<const zkp::msm::Base<bls12_381::G1>>, ThreadPool&);
extern template cuda::Msm<bls12_381::G2>::Fill staged_host_fill<bls12_381::G2>(
    std::span<const zkp::msm::Base<bls12_381::G2>>, ThreadPool&);

}  // namespace zkp::cuda::prover
