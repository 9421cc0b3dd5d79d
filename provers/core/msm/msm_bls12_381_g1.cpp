// MSM instantiation for bls12_381::G1.
#include "core/msm/msm_impl.hpp"

namespace zkp::msm {
ZKP_MSM_INSTANTIATE(bls12_381::G1)
}  // namespace zkp::msm
