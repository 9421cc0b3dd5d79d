// Msm<bls12_381::G1>: one curve per translation unit keeps nvcc's time and memory in bounds.
#include "cuda/msm/msm_impl.cuh"

namespace zkp::cuda {
template class Msm<zkp::bls12_381::G1>;
}
