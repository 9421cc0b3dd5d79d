#include "services/key_table.hpp"

#include "core/util/file_identity.hpp"

#include <zkpipe/host/clock.hpp>
#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <chrono>
#include <optional>

namespace zkp::services {

namespace {

uint64_t unix_ms() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

std::string bytes(uint64_t n) { return std::to_string(n) + " B"; }

}  // namespace

KeyTable::Loaded KeyTable::load(const std::string& path, zkp_key_format_t format, const std::string& witness_generator) {
  try {
    return load_uncounted(path, format, witness_generator);
  } catch (...) {
    const std::lock_guard lock(mu_);
    ++counters_.failed;
    throw;
  }
}

KeyTable::Loaded KeyTable::load_uncounted(const std::string& path, zkp_key_format_t format,
                                          const std::string& witness_generator) {
  if (format != ZKP_KEY_FORMAT_ZKEY && format != ZKP_KEY_FORMAT_BELLPERSON) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "unknown key format " + std::to_string(format));
  }
  const std::optional<FileIdentity> file = file_identity(path);
  if (!file) throw sdk::Error(ZKP_ERR_NOT_FOUND, "key file '" + path + "' does not exist on the server or is no file");
  KeyEntry entry;
  entry.path = file->canonical;
  entry.asked_path = path;
  entry.format = format;
  entry.file_size = file->size;
  entry.file_mtime_ns = file->mtime_ns;
  if (!witness_generator.empty()) {
    const std::optional<FileIdentity> g = file_identity(witness_generator);
    if (!g) throw sdk::Error(ZKP_ERR_NOT_FOUND, "witness generator '" + witness_generator + "' does not exist on the server");
    entry.witness_generator = g->canonical;
  }

  std::lock_guard load_lock(load_mu_);
  {
    std::lock_guard lock(mu_);
    for (auto& [id, k] : keys_) {
      if (k.path == entry.path && k.format == format && k.file_size == entry.file_size &&
          k.file_mtime_ns == entry.file_mtime_ns && k.witness_generator == entry.witness_generator) {
        k.last_used = ++use_clock_;
        k.used_at = clock_();
        ++counters_.hits;
        return {k, true};
      }
    }
  }
  if (budget_ > 0) make_room(entry.file_size, entry.path);
  auto source = sdk::make_struct<zkp_key_source_t>();
  source.path = entry.path.c_str();
  source.format = format;
  if (!entry.witness_generator.empty()) source.witness_generator = entry.witness_generator.c_str();
  const uint64_t start = host::now_ns();
  entry.id = host_.load_key(source);
  entry.load_ns = host::now_ns() - start;
  entry.info = host_.key_info(entry.id);
  entry.loaded_unix_ms = unix_ms();
  host::log().info("{}: key {} loaded from {} in {:.1f} ms{}", owner_, entry.id, entry.path,
                   static_cast<double>(entry.load_ns) / 1e6,
                   budget_ > 0 ? " (" + bytes(entry.file_size) + " of serve.key_budget = " + bytes(budget_) + ")" : "");
  std::lock_guard lock(mu_);
  entry.last_used = ++use_clock_;
  entry.used_at = clock_();
  ++counters_.loads;
  counters_.used_bytes += entry.file_size;
  keys_.emplace(entry.id, entry);
  return {entry, false};
}

void KeyTable::make_room(uint64_t needed, const std::string& for_path) {
  std::vector<std::pair<uint64_t, uint64_t>> idle;  // (last_used, id), oldest first
  {
    std::lock_guard lock(mu_);
    if (needed > budget_) {
      ++counters_.refused;
      throw sdk::Error(ZKP_ERR_BUDGET_EXHAUSTED, "key '" + for_path + "' needs " + bytes(needed) +
                                                     ", more than serve.key_budget = " + bytes(budget_) + " allows");
    }
    if (counters_.used_bytes + needed <= budget_) return;
    uint64_t busy_bytes = 0, busy = 0;
    for (const auto& [id, k] : keys_) {
      if (k.open_jobs > 0) {
        busy_bytes += k.file_size;
        ++busy;
      } else {
        idle.emplace_back(k.last_used, id);
      }
    }
    // Evicting every idle key would not make room: refuse, and evict nothing.
    if (busy_bytes + needed > budget_) {
      ++counters_.refused;
      throw sdk::Error(ZKP_ERR_BUDGET_EXHAUSTED,
                       "key '" + for_path + "' (" + bytes(needed) + ") does not fit in serve.key_budget = " + bytes(budget_) +
                           ": " + bytes(busy_bytes) + " are held by " + std::to_string(busy) +
                           " key(s) with jobs in flight, which are never evicted");
    }
  }
  std::sort(idle.begin(), idle.end());
  for (const auto& [age, id] : idle) {
    {
      std::lock_guard lock(mu_);
      const auto it = keys_.find(id);
      if (it == keys_.end() || it->second.open_jobs > 0) continue;  // a job came for it meanwhile
    }
    try {
      host_.unload_key(id);
    } catch (const sdk::Error& e) {
      if (e.status() != ZKP_ERR_INVALID_ARGUMENT) throw;
      continue;  // partitions in flight after all: never evicted
    }
    std::lock_guard lock(mu_);
    const KeyEntry k = keys_.at(id);
    keys_.erase(id);
    evicted_.insert(id);
    ++counters_.evictions;
    counters_.used_bytes -= k.file_size;
    host::log().warn("{}: key {} ({}, {}) evicted, the least recently used idle key, to make room for '{}' "
                     "({}) under serve.key_budget = {}; {} now used",
                     owner_, id, k.path, bytes(k.file_size), for_path, bytes(needed), bytes(budget_), bytes(counters_.used_bytes));
    if (counters_.used_bytes + needed <= budget_) return;
  }
  std::lock_guard lock(mu_);
  ++counters_.refused;
  throw sdk::Error(ZKP_ERR_BUDGET_EXHAUSTED, "key '" + for_path + "' (" + bytes(needed) +
                                                 ") does not fit in serve.key_budget = " + bytes(budget_) + ": " +
                                                 bytes(counters_.used_bytes) + " are held by keys that jobs took meanwhile");
}

void KeyTable::unload(uint64_t key_id) {
  std::lock_guard load_lock(load_mu_);
  host_.unload_key(key_id);
  std::lock_guard lock(mu_);
  if (const auto it = keys_.find(key_id); it != keys_.end()) {
    counters_.used_bytes -= it->second.file_size;
    keys_.erase(it);
  }
  host::log().info("{}: key {} unloaded", owner_, key_id);
}

std::vector<KeyEntry> KeyTable::list() const {
  std::lock_guard lock(mu_);
  std::vector<KeyEntry> out;
  for (const auto& [id, k] : keys_) out.push_back(k);
  return out;
}

size_t KeyTable::size() const {
  std::lock_guard lock(mu_);
  return keys_.size();
}

void KeyTable::note_job(uint64_t key_id) {
  std::lock_guard lock(mu_);
  if (auto it = keys_.find(key_id); it != keys_.end()) {
    ++it->second.jobs_submitted;
    ++it->second.open_jobs;
    it->second.last_used = ++use_clock_;
    it->second.used_at = clock_();
  }
}

void KeyTable::job_done(uint64_t key_id, bool submitted) {
  std::lock_guard lock(mu_);
  const auto it = keys_.find(key_id);
  if (it == keys_.end()) return;
  if (it->second.open_jobs > 0) --it->second.open_jobs;
  it->second.used_at = clock_();
  if (!submitted && it->second.jobs_submitted > 0) --it->second.jobs_submitted;
}

bool KeyTable::evicted(uint64_t key_id) const {
  std::lock_guard lock(mu_);
  return evicted_.count(key_id) != 0;
}

std::vector<KeyEntry> KeyTable::unload_idle(std::chrono::nanoseconds idle) {
  std::vector<KeyEntry> unloaded;
  std::lock_guard load_lock(load_mu_);
  std::vector<uint64_t> cold;
  {
    std::lock_guard lock(mu_);
    const auto now = clock_();
    for (const auto& [id, k] : keys_) {
      if (k.open_jobs == 0 && now - k.used_at >= idle) cold.push_back(id);
    }
  }
  for (const uint64_t id : cold) {
    try {
      host_.unload_key(id);
    } catch (const sdk::Error& e) {
      // The host still holds partitions of it (a completion not yet seen here): next time.
      host::log().debug("{}: key {} stays loaded for now: {}", owner_, id, e.what());
      continue;
    }
    std::lock_guard lock(mu_);
    const auto it = keys_.find(id);
    counters_.used_bytes -= it->second.file_size;
    unloaded.push_back(it->second);
    keys_.erase(it);
  }
  return unloaded;
}

uint64_t KeyTable::max_synthesis_bytes() const {
  std::lock_guard lock(mu_);
  uint64_t most = 0;
  for (const auto& [id, k] : keys_) most = std::max(most, k.info.synthesis_bytes);
  return most;
}

KeyTable::Counters KeyTable::counters() const {
  std::lock_guard lock(mu_);
  Counters c = counters_;
  c.budget_bytes = budget_;
  return c;
}

}  // namespace zkp::services
