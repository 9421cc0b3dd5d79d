// Byte sizes as people write them in config files: "64GiB", "512 MiB", "1.5 TB",
// "1073741824". Binary suffixes (KiB, MiB, GiB, TiB) are powers of 1024, decimal ones
// (KB, MB, GB, TB) powers of 1000, "B" or no suffix means bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zkp::host {

// The number of bytes `text` names, or nullopt if it is not a byte size or does not fit
// in 64 bits. A fraction is allowed with a suffix ("1.5GiB") and rounds down to a byte.
std::optional<uint64_t> parse_byte_size(std::string_view text);

// A short human-readable size: "512 B", "1.5 KiB", "64.0 GiB".
std::string format_bytes(uint64_t bytes);

}  // namespace zkp::host
