#include "core/backend/key_files.hpp"

#include <zkpipe/sdk/error.hpp>

#include "core/groth16/point_check.hpp"

namespace zkp::backend {

KeyFiles read_key_files(const zkp_key_source_t& source, const KeySettings& settings, ThreadPool& pool) {
  ByteSource bytes = [&] {
    if (source.path != nullptr) return ByteSource::from_file(source.path);
    if (source.data == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_key_source_t has neither path nor data");
    // The ABI keeps the buffer valid until key_free, so it is borrowed, not copied.
    return ByteSource::borrow({static_cast<const std::byte*>(source.data), source.size}, "zkey buffer");
  }();
  ZkeyReadOptions read_options;
  if (settings.check_points) read_options.validate_points = groth16::make_point_validator(settings.point_check, pool);
  KeyFiles out{read_zkey(std::move(bytes), read_options), std::nullopt};
  if (!settings.r1cs_path.empty()) out.r1cs = read_r1cs(ByteSource::from_file(settings.r1cs_path));
  return out;
}

std::string source_name(const zkp_key_source_t& source) {
  return source.path != nullptr ? std::string(source.path) : std::string("(buffer)");
}

}  // namespace zkp::backend
