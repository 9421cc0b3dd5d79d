// MSM instantiation for bn254::G1.
#include "core/msm/msm_impl.hpp"

namespace zkp::msm {
ZKP_MSM_INSTANTIATE(bn254::G1)
}  // namespace zkp::msm
