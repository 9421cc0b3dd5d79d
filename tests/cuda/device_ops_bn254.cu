#include "device_ops.cuh"

namespace zkp::cuda::test {
template FieldResults<zkp::bn254::Fq> device_field_ops(int, std::span<const zkp::bn254::Fq>, std::span<const zkp::bn254::Fq>);
template FieldResults<zkp::bn254::Fr> device_field_ops(int, std::span<const zkp::bn254::Fr>, std::span<const zkp::bn254::Fr>);
template FieldResults<zkp::bn254::Fq2> device_field_ops(int, std::span<const zkp::bn254::Fq2>, std::span<const zkp::bn254::Fq2>);
template CurveResults<zkp::bn254::G1> device_curve_ops(int, std::span<const zkp::Xyzz<zkp::bn254::G1>>,
                                                       std::span<const zkp::Xyzz<zkp::bn254::G1>>,
                                                       std::span<const zkp::Affine<zkp::bn254::G1>>);
template CurveResults<zkp::bn254::G2> device_curve_ops(int, std::span<const zkp::Xyzz<zkp::bn254::G2>>,
                                                       std::span<const zkp::Xyzz<zkp::bn254::G2>>,
                                                       std::span<const zkp::Affine<zkp::bn254::G2>>);
}  // namespace zkp::cuda::test
