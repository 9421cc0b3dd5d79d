// The keys a server holds, by id, and by file: a LoadKey of a file already loaded (same
// canonical path, format, size and modification time) returns the loaded key's id, warm; a
// file changed since gets a new load and a new id.
//
// Locking: load_mu_ serializes loads and unloads (a key is loaded once even when two clients
// ask at once; ListKeys does not wait for a load), mu_ guards the map; load_mu_ before mu_.
#pragma once

#include <zkpipe/host/host.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace zkp::serve {

struct KeyEntry {
  uint64_t id = 0;
  std::string path;  // canonical
  zkp_key_format_t format = ZKP_KEY_FORMAT_ZKEY;
  uint64_t file_size = 0;
  int64_t file_mtime_ns = 0;
  zkp_key_info_t info{};
  uint64_t loaded_unix_ms = 0;
  uint64_t load_ns = 0;
  uint64_t jobs_submitted = 0;
};

class KeyTable {
 public:
  explicit KeyTable(host::Host& host) : host_(host) {}

  struct Loaded {
    KeyEntry key;
    bool already_loaded = false;
  };
  // Throws zkp::sdk::Error (ZKP_ERR_NOT_FOUND for a missing file; the host's errors).
  Loaded load(const std::string& path, zkp_key_format_t format);
  // Throws the host's ZKP_ERR_INVALID_ARGUMENT while partitions of the key are in flight,
  // ZKP_ERR_NOT_FOUND for an unknown id.
  void unload(uint64_t key_id);
  std::vector<KeyEntry> list() const;
  size_t size() const;
  // Counts a job submitted with the key (ListKeys reports it).
  void note_job(uint64_t key_id);

 private:
  host::Host& host_;
  std::mutex load_mu_;
  mutable std::mutex mu_;
  std::map<uint64_t, KeyEntry> keys_;
};

}  // namespace zkp::serve
