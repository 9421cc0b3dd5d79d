// The bearer token of `zkpipe serve`'s TCP listener, as both ends hold it: serve reads it from
// serve.token_file, a client from its token file (or, through libzkpipe_client, from the
// caller), and each call carries it as "authorization: Bearer TOKEN". gRPC takes only printable
// ASCII in a metadata value and abort()s the whole process on any other byte ("API misuse"), so
// a token with a newline, a control byte or a non-ASCII letter is refused here, by both ends,
// with a message, before gRPC sees it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace zkp::services {

// Why `token` cannot be a bearer token ("byte 4 is a newline", "byte 2 is 0xc3, not ASCII",
// ...), or nullopt when it can: a bearer token is one word of visible ASCII (0x21..0x7e).
std::optional<std::string> bearer_token_problem(std::string_view token);

// What a bearer token may hold, for messages.
inline constexpr const char* kBearerTokenRule =
    "a bearer token is one word of printable ASCII (letters, digits, punctuation: bytes 0x21..0x7e)";

// The token in the file `path`, surrounding whitespace (a trailing newline) dropped. Throws
// zkp::sdk::Error naming `what` and the file: ZKP_ERR_NOT_FOUND when it cannot be read,
// ZKP_ERR_INVALID_ARGUMENT when it is not a regular file (a FIFO would block, /dev/zero never
// end: refused before it is opened), is empty, or holds a byte no token may hold.
std::string read_token_file(const std::string& path, const std::string& what);

}  // namespace zkp::services
