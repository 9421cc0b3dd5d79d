// The device fields of both curves, under the host's names in namespace zkp::cuda, and
// DeviceField<HostField>: the device twin of a host field type (for curve code that is
// written against host curve descriptors).
#pragma once

#include "cuda/ff/fp.cuh"
#include "cuda/ff/fp2.cuh"
#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"

namespace zkp::cuda {

namespace bn254 {
using Fq = Fp<zkp::bn254::FqParams>;
using Fr = Fp<zkp::bn254::FrParams>;
using Fq2 = Fp2<Fq>;
}  // namespace bn254

namespace bls12_381 {
using Fq = Fp<zkp::bls12_381::FqParams>;
using Fr = Fp<zkp::bls12_381::FrParams>;
using Fq2 = Fp2<Fq>;
}  // namespace bls12_381

template <class HostField>
struct DeviceFieldOf;
template <class P>
struct DeviceFieldOf<zkp::Fp<P>> {
  using type = Fp<P>;
};
template <class HostFq>
struct DeviceFieldOf<zkp::Fp2<HostFq>> {
  using type = Fp2<typename DeviceFieldOf<HostFq>::type>;
};
template <class HostField>
using DeviceField = typename DeviceFieldOf<HostField>::type;

static_assert(kSameLayout<zkp::bn254::FqParams> && kSameLayout<zkp::bn254::FrParams>);
static_assert(kSameLayout<zkp::bls12_381::FqParams> && kSameLayout<zkp::bls12_381::FrParams>);
static_assert(kSameLayoutFp2<bn254::Fq> && kSameLayoutFp2<bls12_381::Fq>);

}  // namespace zkp::cuda
