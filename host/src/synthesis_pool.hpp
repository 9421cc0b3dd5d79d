// The synthesis threads: each takes the next admitted partition from the pipeline,
// calls prover->synthesize on it (no lock held), and hands the outcome back. Synthesis
// is the slow, parallel, memory-hungry stage (PACING.md: 20–60 s and ~9–14 GiB per
// Filecoin partition), so there are as many threads as the config asks for.
#pragma once

#include <thread>
#include <vector>

#include "job.hpp"
#include "status.hpp"

namespace zkp::host {

class Pipeline;
class Prover;

class SynthesisPool {
 public:
  SynthesisPool(Pipeline& pipeline, Prover& prover, uint32_t threads);  // starts them
  ~SynthesisPool();  // joins them; the pipeline must be stopping
  SynthesisPool(const SynthesisPool&) = delete;
  SynthesisPool& operator=(const SynthesisPool&) = delete;

 private:
  void run();
  // The prover's synthesis of the task's witness; an input (ZKP_WITNESS_INPUT_JSON) is first
  // turned into its witness by the key's generator (kept in the task).
  Status synthesize(Task& task, SynthesisHandle& out);

  Pipeline& pipeline_;
  Prover& prover_;
  std::vector<std::thread> threads_;
};

}  // namespace zkp::host
