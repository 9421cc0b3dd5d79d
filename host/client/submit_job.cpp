#include "submit_job.hpp"

#include <algorithm>

namespace zkp::client {

namespace v1 = zkpipe::v1;

namespace {

CallOutcome unary(const Connection& c, const WitnessJob& job, v1::SubmitResponse* response) {
  CallOutcome out{"Submit", c.context(), {}};
  out.status = c.stub().Submit(out.context.get(), unary_request(job), response);
  return out;
}

CallOutcome streamed(const Connection& c, const WitnessJob& job, v1::SubmitResponse* response) {
  CallOutcome out{"SubmitStream", c.context(), {}};
  auto writer = c.stub().SubmitStream(out.context.get(), response);
  v1::JobRequestPiece piece;
  *piece.mutable_header() = job.header;
  for (const std::string_view w : job.witnesses) piece.add_witness_sizes(w.size());
  // A failed Write means the server has ended the call (a refusal, typically before any byte:
  // serve.request_budget); Finish() then says why.
  bool open = writer->Write(piece);
  piece.Clear();
  for (size_t i = 0; open && i < job.witnesses.size(); ++i) {
    const std::string_view w = job.witnesses[i];
    for (size_t at = 0; open && at < w.size(); at += kPieceBytes) {
      piece.set_data(w.data() + at, std::min(kPieceBytes, w.size() - at));
      open = writer->Write(piece);
    }
  }
  if (open) writer->WritesDone();
  out.status = writer->Finish();
  return out;
}

}  // namespace

std::size_t witness_bytes(const WitnessJob& job) {
  std::size_t n = 0;
  for (const std::string_view w : job.witnesses) n += w.size();
  return n;
}

v1::JobRequest unary_request(const WitnessJob& job) {
  v1::JobRequest request = job.header;
  for (const std::string_view w : job.witnesses) request.add_witnesses(w.data(), w.size());
  return request;
}

CallOutcome submit_witness_job(const Connection& c, const WitnessJob& job, v1::SubmitResponse* response) {
  if (!goes_by_stream(job)) return unary(c, job, response);
  CallOutcome out = streamed(c, job, response);
  if (out.status.error_code() == grpc::StatusCode::UNIMPLEMENTED && out.context->GetServerTrailingMetadata().count("zkp-status") == 0) {
    // A server from before SubmitStream (gRPC's own UNIMPLEMENTED carries no zkp-status).
    return unary(c, job, response);
  }
  return out;
}

}  // namespace zkp::client
