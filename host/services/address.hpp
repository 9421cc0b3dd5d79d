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

// Whether HOST:PORT names a loopback host: "localhost", or an address written as one in
// 127.0.0.0/8 or [::1]. Compared as an address, so "127.evil.example" is none, and no resolver
// is asked. The plain-HTTP endpoints (serve.http, `worker --http`) bind only such hosts.
bool is_loopback_address(const std::string& host_port);

}  // namespace zkp::services
