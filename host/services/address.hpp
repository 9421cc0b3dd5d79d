// Where a `zkpipe serve` listens, in the words its clients and its settings share.
#pragma once

#include <string>

namespace zkp::services {

// serve.socket's default: $XDG_RUNTIME_DIR/zkpipe.sock, else /tmp/zkpipe-UID.sock (a folder
// only the user can write to when systemd or a login made one, else /tmp).
std::string default_socket();

// The gRPC target of an address: "" -> the default socket, "/PATH" -> "unix:/PATH", else as
// is ("unix:PATH", "HOST:PORT").
std::string target_of(const std::string& address);

}  // namespace zkp::services
