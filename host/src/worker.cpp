#include <zkpipe/host/worker.hpp>

#include <zkpipe/host/pipeline.hpp>
#include <zkpipe/sdk/error.hpp>

namespace zkp::host {

Worker::Worker(Pipeline& pipeline, Prover& prover, uint32_t device, uint32_t index, bool self_check)
    : pipeline_(pipeline),
      prover_(prover),
      device_(device),
      index_(index),
      self_check_(self_check),
      thread_([this] { run(); }) {}

Worker::~Worker() { thread_.join(); }

void Worker::run() {
  while (std::optional<Task> task = pipeline_.next_proof(device_, index_)) {
    bool device_finished = false;
    Completion record = prove(*task, device_finished);
    if (!device_finished && pipeline_.retry_elsewhere(*task, record)) continue;  // synthesis kept for it
    task->synthesis.reset();  // (if the proof failed); the budget follows in proof_done
    pipeline_.proof_done(std::move(*task), std::move(record), device_finished);
  }
}

Completion Worker::prove(Task& task, bool& device_finished) {
  const LoadedKey& key = *task.job->key;
  Completion record;
  record.gpu_index = static_cast<int32_t>(device_);
  record.worker = index_;
  record.synthesis_ns = task.synthesis_ns;
  record.queue_wait_ns = task.queue_wait_ns;
  record.flags = prover_.simulated() ? ZKP_COMPLETION_SIMULATED : 0u;
  auto fail = [&](Status status) {
    record.status = status.code;
    record.message = std::move(status.message);
    return record;
  };

  auto input = sdk::make_struct<zkp_prove_input_t>();
  input.synthesis = task.synthesis.get();
  input.external = task.input().synthesized;
  input.randomness = task.randomness();
  zkp_prove_op_t* op = nullptr;
  if (Status s = prover_.prove_start(*key.handle, input, static_cast<int32_t>(device_), index_, op); !s.ok()) {
    return fail(std::move(s));
  }

  std::vector<uint8_t> proof(key.info.proof_size);
  std::vector<uint8_t> public_inputs(key.info.public_size);
  auto out = sdk::make_struct<zkp_prove_output_t>();
  out.proof = proof.data();
  out.proof_capacity = proof.size();
  out.public_inputs = public_inputs.data();
  out.public_capacity = public_inputs.size();
  Status finished = prover_.prove_finish(op, out);
  if (!finished.ok()) return fail(std::move(finished));  // the synthesis stays: it may be retried
  task.synthesis.reset();  // the partition's memory goes now; verify needs only the proof

  device_finished = true;
  record.gpu_duration_ns = out.gpu_duration_ns;
  if (out.gpu_index != static_cast<int32_t>(device_)) {
    return fail({ZKP_ERR_INTERNAL, "prover '" + prover_.name() + "' reports the proof ran on device " +
                                       std::to_string(out.gpu_index) + ", but worker " +
                                       std::to_string(index_) + " of device " + std::to_string(device_) +
                                       " asked for it"});
  }
  if (out.proof_size > proof.size() || out.public_size > public_inputs.size()) {
    return fail({ZKP_ERR_INTERNAL, "prover '" + prover_.name() + "' wrote more bytes than the buffers hold"});
  }
  proof.resize(out.proof_size);
  public_inputs.resize(out.public_size);
  record.proof = std::move(proof);
  record.public_inputs = std::move(public_inputs);
  self_check(task, record);
  return record;
}

void Worker::self_check(const Task& task, Completion& record) const {
  if (!self_check_ || !prover_.can_verify() || prover_.simulated()) return;
  bool valid = false;
  Status s = prover_.verify(*task.job->key->handle, record.proof, record.public_inputs, valid);
  if (!s.ok() || !valid) {
    record.status = s.ok() ? ZKP_ERR_INTERNAL : s.code;
    record.message = s.ok() ? "self-check failed: the proof does not verify against the key" : s.message;
    record.proof.clear();  // never delivered
    record.public_inputs.clear();
    return;
  }
  record.flags |= ZKP_COMPLETION_SELF_CHECKED;
}

}  // namespace zkp::host
