#include "memory_budget.hpp"

#include "invariant.hpp"

#include <algorithm>

namespace zkp::host {

void MemoryBudget::reserve(uint64_t bytes) {
  ZKP_HOST_INVARIANT(can_grant(bytes), "memory budget over-committed");
  used_ += bytes;
  peak_ = std::max(peak_, used_);
  ZKP_HOST_INVARIANT(peak_ <= total_, "memory budget peak above the total");
}

void MemoryBudget::release(uint64_t bytes) {
  ZKP_HOST_INVARIANT(bytes <= used_, "memory budget released more than was reserved");
  used_ -= bytes;
}

}  // namespace zkp::host
