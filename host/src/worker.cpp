#include "worker.hpp"

#include "pipeline.hpp"
#include <zkpipe/sdk/error.hpp>

#include <optional>

namespace zkp::host {

Worker::Worker(Pipeline& pipeline, Prover& prover, uint32_t device, uint32_t index, bool self_check,
               bool overlap)
    : pipeline_(pipeline),
      prover_(prover),
      device_(device),
      index_(index),
      self_check_(self_check),
      overlap_(overlap),
      thread_([this] { run(); }) {}

Worker::~Worker() { thread_.join(); }

void Worker::run() {
  std::optional<Held> current;  // started, not yet finished
  for (;;) {
    if (!current) {
      std::optional<Task> task = pipeline_.next_proof(device_, index_);  // blocks: nothing is held
      if (!task) return;
      current = begin(std::move(*task));
      if (!current) continue;
    }
    // The next partition's op goes to the device before this one is finished, if one is
    // already queued; never wait for one.
    std::optional<Held> next;
    if (overlap_) {
      if (std::optional<Task> task = pipeline_.try_next_proof(device_, index_)) next = begin(std::move(*task));
    }
    bool device_finished = false;
    finish(*current, device_finished);
    conclude(std::move(*current), device_finished);
    current = std::move(next);
  }
}

std::optional<Worker::Held> Worker::begin(Task task) {
  Held held = start(std::move(task));
  if (held.op != nullptr) return held;
  conclude(std::move(held), false);  // a failed start has no op to finish
  return std::nullopt;
}

Worker::Held Worker::start(Task task) {
  Held held;
  held.task = std::move(task);
  Completion& record = held.record;
  record.gpu_index = static_cast<int32_t>(device_);
  record.worker = index_;
  record.synthesis_ns = held.task.synthesis_ns;
  record.queue_wait_ns = held.task.queue_wait_ns;
  record.flags = prover_.simulated() ? ZKP_COMPLETION_SIMULATED : 0u;

  auto input = sdk::make_struct<zkp_prove_input_t>();
  input.synthesis = held.task.synthesis.get();
  input.external = held.task.input().synthesized;
  input.randomness = held.task.randomness();
  if (held.task.synthesis != nullptr && pipeline_.last_attempt(held.task)) {
    input.flags |= ZKP_PROVE_INPUT_FINAL;
    held.task.synthesis_handed_over = true;
  }
  const LoadedKey& key = *held.task.job->key;
  held.watch = pipeline_.device_op_started(held.task, device_);
  if (Status s = prover_.prove_start(*key.handle, input, static_cast<int32_t>(device_), index_, held.op); !s.ok()) {
    held.op = nullptr;
    record.status = s.code;
    record.message = std::move(s.message);
    left_device(held);
  }
  return held;
}

bool Worker::left_device(Held& held) {
  if (!pipeline_.device_op_ended(held.watch)) return false;
  held.record.status = ZKP_ERR_DEVICE;
  held.record.message = "device " + std::to_string(device_) +
                        ": the partition watchdog declared the partition hung (see the log); the prover's call "
                        "returned afterwards and its result was dropped";
  return true;
}

void Worker::finish(Held& held, bool& device_finished) {
  Task& task = held.task;
  Completion& record = held.record;
  auto fail = [&](Status status) {
    record.status = status.code;
    record.message = std::move(status.message);
  };

  const LoadedKey& key = *task.job->key;
  std::vector<uint8_t> proof(key.info.proof_size);
  std::vector<uint8_t> public_inputs(key.info.public_size);
  auto out = sdk::make_struct<zkp_prove_output_t>();
  out.proof = proof.data();
  out.proof_capacity = proof.size();
  out.public_inputs = public_inputs.data();
  out.public_capacity = public_inputs.size();
  zkp_prove_op_t* op = held.op;
  held.op = nullptr;  // prove_finish frees it whatever it returns
  release_input_early(task, op);
  Status finished = prover_.prove_finish(op, out);
  if (left_device(held)) return;  // now a device error: the synthesis stays, it may be retried
  if (!finished.ok()) return fail(std::move(finished));  // the synthesis stays: it may be retried
  task.synthesis.reset();  // the partition's memory goes now; verify needs only the proof

  device_finished = true;
  record.gpu_duration_ns = out.gpu_duration_ns;
  if (out.gpu_index != static_cast<int32_t>(device_)) {
    return fail({ZKP_ERR_INTERNAL, "prover '" + prover_.name() + "' reports the proof ran on device " +
                                       std::to_string(out.gpu_index) + ", but worker " + std::to_string(index_) +
                                       " of device " + std::to_string(device_) + " asked for it"});
  }
  if (out.proof_size > proof.size() || out.public_size > public_inputs.size()) {
    return fail({ZKP_ERR_INTERNAL, "prover '" + prover_.name() + "' wrote more bytes than the buffers hold"});
  }
  proof.resize(out.proof_size);
  public_inputs.resize(out.public_size);
  record.proof = std::move(proof);
  record.public_inputs = std::move(public_inputs);
  if ((out.flags & ZKP_PROVE_OUTPUT_VERIFIED) != 0) {
    record.flags |= ZKP_COMPLETION_SELF_CHECKED;  // the prover checked it: once is enough
    return;
  }
  self_check(task, record);
}

void Worker::release_input_early(Task& task, zkp_prove_op_t* op) {
  // Only the caller's memory is worth telling about early (a witness partition's input was read
  // by its synthesis, whose memory is the host's), and only when someone listens: prove_wait
  // gives up the partition's retries.
  if (!prover_.waits() || !task.externally_synthesized() || !task.job->input_release->wanted()) return;
  if (!prover_.prove_wait(op).ok()) return;  // prove_finish reports the failure; a retry may follow
  task.input_released = true;
  task.job->input_release->release(task.partition);
}

void Worker::conclude(Held held, bool device_finished) {
  if (!device_finished && pipeline_.retry_elsewhere(held.task, held.record)) return;  // synthesis kept for it
  held.task.synthesis.reset();  // (if the proof failed); the budget follows in proof_done
  pipeline_.proof_done(std::move(held.task), std::move(held.record), device_finished);
}

void Worker::self_check(const Task& task, Completion& record) const {
  if (!self_check_ || !prover_.can_verify() || prover_.simulated()) return;
  bool valid = false;
  Status s = prover_.verify(*task.job->key->handle, record.proof, record.public_inputs, valid);
  if (!s.ok() || !valid) {
    // A proof that does not verify comes from a witness that does not satisfy the circuit (when
    // the prover itself does not check it: prover.verify=false) or from a faulty prover; the
    // first is the caller's to fix, and the likely one, so it is the status.
    record.status = s.ok() ? ZKP_ERR_UNSATISFIED_WITNESS : s.code;
    record.message = s.ok() ? "self-check failed: the proof does not verify against the key (the witness does not "
                              "satisfy the circuit, or the prover is faulty)"
                            : s.message;
    record.proof.clear();  // never delivered
    record.public_inputs.clear();
    return;
  }
  record.flags |= ZKP_COMPLETION_SELF_CHECKED;
}

}  // namespace zkp::host
