#include "synthesis_pool.hpp"

#include <zkpipe/host/clock.hpp>
#include "pipeline.hpp"

namespace zkp::host {

SynthesisPool::SynthesisPool(Pipeline& pipeline, Prover& prover, uint32_t threads)
    : pipeline_(pipeline), prover_(prover) {
  threads_.reserve(threads);
  for (uint32_t i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

SynthesisPool::~SynthesisPool() {
  for (std::thread& t : threads_) t.join();
}

void SynthesisPool::run() {
  while (std::optional<Task> task = pipeline_.next_synthesis()) {
    const uint64_t start = now_ns();
    SynthesisHandle synthesis;
    Status status = prover_.synthesize(*task->job->key->handle, task->input().witness, synthesis);
    const uint64_t elapsed = now_ns() - start;
    task->synthesis = std::move(synthesis);
    pipeline_.synthesis_done(std::move(*task), std::move(status), elapsed);
  }
}

}  // namespace zkp::host
