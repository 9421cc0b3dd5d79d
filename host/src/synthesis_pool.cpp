#include "synthesis_pool.hpp"

#include <zkpipe/host/clock.hpp>
#include <zkpipe/sdk/error.hpp>

#include <string_view>
#include <vector>
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
    Status status = synthesize(*task, synthesis);
    const uint64_t elapsed = now_ns() - start;
    task->synthesis = std::move(synthesis);
    pipeline_.synthesis_done(std::move(*task), std::move(status), elapsed);
  }
}

Status SynthesisPool::synthesize(Task& task, SynthesisHandle& out) {
  const zkp_witness_t& given = task.input().witness;
  if (given.kind != ZKP_WITNESS_INPUT_JSON) return prover_.synthesize(*task.job->key->handle, given, out);
  // An input: its witness first, with the key's generator (submit checked that it has one),
  // then the prover's synthesis of it as a full assignment.
  std::vector<std::uint8_t>& assignment = task.generated_witness;
  try {
    const std::string_view json(static_cast<const char*>(given.data), given.data == nullptr ? 0 : given.size);
    assignment = task.job->key->generator->calculate(json);
  } catch (const sdk::Error& e) {
    return {e.status(), "witness generation: " + std::string(e.what())};
  } catch (const std::bad_alloc&) {
    return {ZKP_ERR_OUT_OF_MEMORY, "witness generation: out of host memory"};
  }
  auto witness = sdk::make_struct<zkp_witness_t>();
  witness.kind = ZKP_WITNESS_ASSIGNMENT;
  witness.data = assignment.data();
  witness.size = assignment.size();
  return prover_.synthesize(*task.job->key->handle, witness, out);
}

}  // namespace zkp::host
