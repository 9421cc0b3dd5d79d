#include "key_table.hpp"

#include <zkpipe/host/clock.hpp>
#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <chrono>
#include <filesystem>

namespace zkp::serve {

namespace fs = std::filesystem;

namespace {

uint64_t unix_ms() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

}  // namespace

KeyTable::Loaded KeyTable::load(const std::string& path, zkp_key_format_t format) {
  if (format != ZKP_KEY_FORMAT_ZKEY && format != ZKP_KEY_FORMAT_BELLPERSON) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "unknown key format " + std::to_string(format));
  }
  std::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  if (ec || !fs::is_regular_file(canonical, ec)) {
    throw sdk::Error(ZKP_ERR_NOT_FOUND, "key file '" + path + "' does not exist on the server or is no file");
  }
  KeyEntry entry;
  entry.path = canonical.string();
  entry.format = format;
  entry.file_size = fs::file_size(canonical, ec);
  entry.file_mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            fs::last_write_time(canonical, ec).time_since_epoch()).count();

  std::lock_guard load_lock(load_mu_);
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, k] : keys_) {
      if (k.path == entry.path && k.format == format && k.file_size == entry.file_size &&
          k.file_mtime_ns == entry.file_mtime_ns) {
        return {k, true};
      }
    }
  }
  auto source = sdk::make_struct<zkp_key_source_t>();
  source.path = entry.path.c_str();
  source.format = format;
  const uint64_t start = host::now_ns();
  entry.id = host_.load_key(source);
  entry.load_ns = host::now_ns() - start;
  entry.info = host_.key_info(entry.id);
  entry.loaded_unix_ms = unix_ms();
  host::log().info("serve: key {} loaded from {} in {:.1f} ms", entry.id, entry.path,
                   static_cast<double>(entry.load_ns) / 1e6);
  std::lock_guard lock(mu_);
  keys_.emplace(entry.id, entry);
  return {entry, false};
}

void KeyTable::unload(uint64_t key_id) {
  std::lock_guard load_lock(load_mu_);
  host_.unload_key(key_id);
  std::lock_guard lock(mu_);
  keys_.erase(key_id);
  host::log().info("serve: key {} unloaded", key_id);
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
  if (auto it = keys_.find(key_id); it != keys_.end()) ++it->second.jobs_submitted;
}

}  // namespace zkp::serve
