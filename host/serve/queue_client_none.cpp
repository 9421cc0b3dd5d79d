// QueueClient when this zkpipe is built without libpq (no libzkpipe_queue): serve.queue_url
// then fails at start, saying why.
#include "queue_client.hpp"

#include <zkpipe/sdk/error.hpp>

namespace zkp::serve {

struct QueueClient::Handle {};

QueueClient::QueueClient(const std::string&) {
  throw sdk::Error(ZKP_ERR_UNSUPPORTED,
                   "serve.queue_url: this zkpipe was built without libpq (libzkpipe_queue); scripts/install-deps.sh "
                   "installs libpq-dev");
}

QueueClient::~QueueClient() = default;

uint64_t QueueClient::enqueue(const zkpipe::v1::EnqueueRequest&) { return 0; }

zkpipe::v1::JobStatusResponse QueueClient::status(const zkpipe::v1::JobStatusRequest&) { return {}; }

}  // namespace zkp::serve
