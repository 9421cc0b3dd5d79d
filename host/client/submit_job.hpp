// How a client hands a job of witnesses to `zkpipe serve`: libzkpipe_client's C API
// (c_api.cpp) and `zkpipe client` (client_command.cpp) both submit through here.
//
// A job of more than kStreamAbove bytes of witnesses goes by SubmitStream, in pieces of
// kPieceBytes, so the server holds its witnesses once and counts them in serve.request_budget
// before they arrive (prover.proto says why); a smaller one goes by unary Submit, one round trip.
// Against a server without SubmitStream (UNIMPLEMENTED), the job is sent again by Submit.
#pragma once

#include "connection.hpp"

#include "zkpipe/v1/prover.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace zkp::client {

inline constexpr size_t kStreamAbove = size_t{1} << 20;
inline constexpr size_t kPieceBytes = size_t{256} << 10;

struct WitnessJob {
  zkpipe::v1::JobRequest header;            // key_id, gpu_index, priority; no witnesses
  std::vector<std::string_view> witnesses;  // one .wtns per partition, the caller's bytes
};

// How the call ended, for call_status.hpp's check() or a program's own report.
struct CallOutcome {
  const char* call = "";                         // "Submit" or "SubmitStream"
  std::unique_ptr<grpc::ClientContext> context;  // the one the call ended in
  grpc::Status status;
};

// The bytes of the job's witnesses, and whether they go by SubmitStream (past kStreamAbove);
// a caller that proves such a job does so as SubmitStream + Await.
std::size_t witness_bytes(const WitnessJob& job);
inline bool goes_by_stream(const WitnessJob& job) { return witness_bytes(job) > kStreamAbove; }
// The job as one unary message (Submit or Prove): the header with the witnesses copied in.
zkpipe::v1::JobRequest unary_request(const WitnessJob& job);

// Submits `job`; on OK, `response` has the job id. `job` stays the caller's.
CallOutcome submit_witness_job(const Connection& c, const WitnessJob& job, zkpipe::v1::SubmitResponse* response);

}  // namespace zkp::client
