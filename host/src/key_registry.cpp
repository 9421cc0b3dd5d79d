#include "key_registry.hpp"

#include <zkpipe/sdk/error.hpp>

namespace zkp::host {

uint64_t KeyRegistry::add(KeyHandle handle, const zkp_key_info_t& info, std::shared_ptr<const WitnessGenerator> generator) {
  auto key = std::make_shared<LoadedKey>();
  key->handle = std::move(handle);
  key->info = info;
  key->generator = std::move(generator);
  std::lock_guard lock(mu_);
  key->id = next_id_++;
  keys_.emplace(key->id, key);
  return key->id;
}

std::shared_ptr<const LoadedKey> KeyRegistry::find(uint64_t id) const {
  std::lock_guard lock(mu_);
  auto it = keys_.find(id);
  if (it == keys_.end()) {
    throw sdk::Error(ZKP_ERR_NOT_FOUND, "key id " + std::to_string(id) + " is unknown (load it with zkp_host_load_key)");
  }
  return it->second;
}

void KeyRegistry::remove(uint64_t id) {
  std::shared_ptr<const LoadedKey> dropped;
  {
    std::lock_guard lock(mu_);
    auto it = keys_.find(id);
    if (it == keys_.end()) throw sdk::Error(ZKP_ERR_NOT_FOUND, "key id " + std::to_string(id) + " is unknown");
    dropped = std::move(it->second);
    keys_.erase(it);
  }
  // key_free runs here, outside the lock, if nothing else holds the key.
}

void KeyRegistry::clear() {
  std::map<uint64_t, std::shared_ptr<const LoadedKey>> dropped;
  {
    std::lock_guard lock(mu_);
    dropped.swap(keys_);
  }
  // key_free runs here, outside the lock.
}

}  // namespace zkp::host
