#include "job_request.hpp"

#include <zkpipe/sdk/error.hpp>

namespace zkp::serve {

void take_partitions(zkpipe::v1::JobRequest& request, JobPartitions& out) {
  if (request.witnesses_size() == 0 && request.synthesized_size() == 0) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the job has no witnesses and no synthesized partitions (one per partition)");
  }
  if (request.witnesses_size() != 0 && request.synthesized_size() != 0) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the job has both witnesses and synthesized partitions: one or the other");
  }
  const int n = request.witnesses_size();
  out.witnesses.reserve(static_cast<size_t>(n));  // no reallocation below: parts point into them
  for (int i = 0; i < n; ++i) out.witnesses.push_back(std::move(*request.mutable_witnesses(i)));
  for (const std::string& w : out.witnesses) {
    auto part = sdk::make_struct<zkp_partition_t>();
    part.witness = sdk::make_struct<zkp_witness_t>();
    // inputs: input.json texts, whose witnesses the key's generator makes (the host refuses
    // the job when the key has none).
    part.witness.kind = request.inputs() ? ZKP_WITNESS_INPUT_JSON : ZKP_WITNESS_WTNS_BUFFER;
    part.witness.data = w.data();
    part.witness.size = w.size();
    out.parts.push_back(part);
  }
  const int m = request.synthesized_size();
  for (int i = 0; i < m; ++i) {
    out.synthesized.push_back(
        std::make_unique<SynthesizedInput>(std::move(*request.mutable_synthesized(i)), static_cast<uint32_t>(i)));
    auto part = sdk::make_struct<zkp_partition_t>();
    part.synthesized = &out.synthesized.back()->record();
    out.parts.push_back(part);
  }
}

}  // namespace zkp::serve
