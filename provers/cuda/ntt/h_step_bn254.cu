// HStep<bn254::Fr>: one field per translation unit keeps nvcc's time and memory in bounds.
#include "cuda/ntt/h_step_impl.cuh"

namespace zkp::cuda {
template class HStep<zkp::bn254::Fr>;
}
