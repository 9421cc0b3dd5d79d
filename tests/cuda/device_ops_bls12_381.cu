#include "device_ops.cuh"

namespace zkp::cuda::test {
template FieldResults<zkp::bls12_381::Fq> device_field_ops(int, std::span<const zkp::bls12_381::Fq>, std::span<const zkp::bls12_381::Fq>);
template FieldResults<zkp::bls12_381::Fr> device_field_ops(int, std::span<const zkp::bls12_381::Fr>, std::span<const zkp::bls12_381::Fr>);
template FieldResults<zkp::bls12_381::Fq2> device_field_ops(int, std::span<const zkp::bls12_381::Fq2>, std::span<const zkp::bls12_381::Fq2>);
template CurveResults<zkp::bls12_381::G1> device_curve_ops(int, std::span<const zkp::Xyzz<zkp::bls12_381::G1>>,
                                                       std::span<const zkp::Xyzz<zkp::bls12_381::G1>>,
                                                       std::span<const zkp::Affine<zkp::bls12_381::G1>>);
template CurveResults<zkp::bls12_381::G2> device_curve_ops(int, std::span<const zkp::Xyzz<zkp::bls12_381::G2>>,
                                                       std::span<const zkp::Xyzz<zkp::bls12_381::G2>>,
                                                       std::span<const zkp::Affine<zkp::bls12_381::G2>>);
}  // namespace zkp::cuda::test
