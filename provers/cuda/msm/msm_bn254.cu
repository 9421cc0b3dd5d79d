// Msm<bn254::G1>: one curve per translation unit keeps nvcc's time and memory in bounds.
#include "cuda/msm/msm_impl.cuh"

namespace zkp::cuda {
template class Msm<zkp::bn254::G1>;
}
