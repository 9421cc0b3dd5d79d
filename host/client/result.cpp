#include "result.hpp"

#include <zkpipe/sdk/error.hpp>

#include "services/partition_result.hpp"

#include <memory>

namespace zkp::client {

std::unique_ptr<zkp_client_result_t> make_result(uint64_t job_id, std::vector<zkpipe::v1::PartitionResult> messages) {
  auto r = std::make_unique<zkp_client_result_t>();
  r->job_id = job_id;
  r->messages = std::move(messages);
  r->views.reserve(r->messages.size());
  for (const zkpipe::v1::PartitionResult& m : r->messages) r->views.push_back(services::client_view(m));
  return r;
}

}  // namespace zkp::client
