// Msm<bn254::G2>: the G1 kernels over Fq2 coordinates, in a translation unit of its own.
#include "cuda/msm/msm_impl.cuh"

namespace zkp::cuda {
template class Msm<zkp::bn254::G2>;
}
