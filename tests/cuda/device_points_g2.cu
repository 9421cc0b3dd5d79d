// Random G2 bases made on the GPU (device_points.hpp): the G1 construction over Fq2.
#include "device_points_impl.cuh"

namespace zkp::cuda::test {

template std::vector<zkp::msm::Base<zkp::bn254::G2>> device_random_bases<zkp::bn254::G2>(int, std::size_t, std::uint64_t);
template std::vector<zkp::msm::Base<zkp::bls12_381::G2>> device_random_bases<zkp::bls12_381::G2>(int, std::size_t, std::uint64_t);

}  // namespace zkp::cuda::test
