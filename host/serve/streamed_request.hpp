// SubmitStream's pieces (proto/zkpipe/v1/prover.proto, JobRequestPiece) put back together into
// the JobRequest a unary Submit would have carried, with its witnesses' bytes counted in
// serve.request_budget from the first piece, before any of them arrive (issue 36, item 8: a
// unary 60 MiB Submit briefly held 155 MiB that no budget saw).
#pragma once

#include "job_table.hpp"

#include "zkpipe/v1/prover.grpc.pb.h"

#include <cstdint>
#include <functional>

namespace zkp::serve {

struct StreamedRequest {
  zkpipe::v1::JobRequest request;  // header and witnesses, ready for JobTable::submit
  JobTable::Reservation reserved;  // the witnesses' bytes, counted
};

// Reads every piece from `reader`: the header and sizes first, then `reserve(total bytes)`
// (which throws to refuse, before any witness byte is read), then the bytes, copied into
// witnesses sized up front. Throws zkp::sdk::Error with ZKP_ERR_INVALID_ARGUMENT, naming what is
// wrong, for a stream that breaks the protocol: no header, witnesses or synthesized partitions in
// it, no sizes or an empty one, sizes past 2^62 together, a later piece with a header, more bytes
// than the sizes, or fewer when the client closes its side.
StreamedRequest receive_streamed(grpc::ServerReaderInterface<zkpipe::v1::JobRequestPiece>& reader,
                                 const std::function<JobTable::Reservation(uint64_t bytes)>& reserve);

}  // namespace zkp::serve
