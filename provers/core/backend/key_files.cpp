#include "core/backend/key_files.hpp"

#include <zkpipe/sdk/error.hpp>

#include <cstdint>
#include <limits>

#include "core/groth16/point_check.hpp"

namespace zkp::backend {

ByteSource key_bytes(const zkp_key_source_t& source, const char* buffer_name, ThreadPool* pool) {
  if (source.path != nullptr) return ByteSource::from_file(source.path, std::numeric_limits<std::uint64_t>::max(), pool);
  if (source.data == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_key_source_t has neither path nor data");
  return ByteSource::borrow({static_cast<const std::byte*>(source.data), source.size}, buffer_name);
}

std::optional<R1cs> settings_r1cs(const KeySettings& settings) {
  if (settings.r1cs_path.empty()) return std::nullopt;
  return read_r1cs(ByteSource::from_file(settings.r1cs_path));
}

KeyFiles read_key_files(const zkp_key_source_t& source, const KeySettings& settings, ThreadPool& pool) {
  ZkeyReadOptions read_options;
  read_options.pool = &pool;
  if (settings.check_points) read_options.validate_points = groth16::make_point_validator(settings.point_check, pool);
  // The header first: a file that is no zkey is refused before it is read whole.
  if (source.path != nullptr) check_zkey_layout(source.path);
  // A zkey is read in place: the ABI keeps a buffer valid until key_free.
  return {read_zkey(key_bytes(source, "zkey buffer", &pool), read_options), settings_r1cs(settings)};
}

std::string source_name(const zkp_key_source_t& source) {
  return source.path != nullptr ? std::string(source.path) : std::string("(buffer)");
}

}  // namespace zkp::backend
