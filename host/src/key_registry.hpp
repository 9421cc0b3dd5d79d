// The proving keys a host has loaded, by id (never 0). A key lives while the host
// holds it or a job in flight uses it (shared ownership); keys are freed through the
// prover, which must outlive the registry.
#pragma once

#include "job.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace zkp::host {

class KeyRegistry {
 public:
  // Stores a loaded key and returns its id.
  uint64_t add(KeyHandle handle, const zkp_key_info_t& info, std::shared_ptr<const WitnessGenerator> generator = nullptr);
  // The key with `id`, or ZKP_ERR_NOT_FOUND.
  std::shared_ptr<const LoadedKey> find(uint64_t id) const;
  // Drops the registry's reference to key `id` (a job still holding it keeps it alive), or
  // ZKP_ERR_NOT_FOUND.
  void remove(uint64_t id);
  // Drops the registry's references (jobs still in flight keep theirs).
  void clear();

 private:
  mutable std::mutex mu_;  // a leaf: never held while calling anything else
  std::map<uint64_t, std::shared_ptr<const LoadedKey>> keys_;
  uint64_t next_id_ = 1;
};

}  // namespace zkp::host
