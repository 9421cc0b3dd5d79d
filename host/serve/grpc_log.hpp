// gRPC's own log lines (a bind failure, a TLS handshake that failed), which it writes to stderr
// itself, go through zkpipe's logger instead: with serve.log_format = json they are JSON lines
// like every other, so a log pipeline that parses stderr as JSON does not break on them.
#pragma once

namespace zkp::serve {

// Routes every line gRPC logs from now on to host::log() ("grpc: FILE:LINE: message", at the
// matching level). Process-wide, once, before the server starts. [program start]
void route_grpc_log_lines();

}  // namespace zkp::serve
