// A failed gRPC call in zkpipe's terms: the zkp_status_t the server sent (its "zkp-status"
// trailing metadata, prover.proto's rule), or, when the failure is the transport's or the
// server sent none, one read from the gRPC code; and a message naming the call, the code and
// the server's words.
#pragma once

#include <zkpipe/zkp_common.h>

#include <grpcpp/grpcpp.h>

#include <string>

namespace zkp::client {

// The status of a call that ended with `status` (OK: ZKP_OK). Transport failures
// (UNAVAILABLE, UNAUTHENTICATED, DEADLINE_EXCEEDED) win over the server's metadata: they say
// why the call did not reach the host at all.
zkp_status_t status_of(const grpc::ClientContext& context, const grpc::Status& status);

// "CALL: CODE_NAME: server message".
std::string describe(const char* call, const grpc::Status& status);

// Throws sdk::Error(status_of(...), describe(...)) when `status` is not OK.
void check(const char* call, const grpc::ClientContext& context, const grpc::Status& status);

}  // namespace zkp::client
