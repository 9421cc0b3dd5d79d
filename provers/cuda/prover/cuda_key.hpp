// CudaKey<BK>: a loaded key — BK is backend::CurveKey<E> (a zkey) or backend::BellpersonKey —
// the facade over its three parts:
//   BK                     what faces the ABI: synthesis, input checks, (r, s), self-check, encoding
//   ResidentKey<PK>        its device copies, per device (resident_key.hpp; PK = BK::Proving)
//   ProofStages<PK, Input> the device pipeline of one proof on a lane (proof_stages.hpp)
// A proof's walk: start() checks the input (backend) and posts the stages to the lane; the
// op's finish() waits for them and runs the CPU core's epilogue (groth16::epilogue) on the five
// sums, so the proof bytes are the cpu prover's for the same (r, s).
#pragma once

#include <future>
#include <memory>
#include <shared_mutex>
#include <string>

#include "core/backend/bellperson_key.hpp"
#include "core/backend/curve_key.hpp"
#include "core/groth16/prover.hpp"
#include "key_state.hpp"
#include "proof_stages.hpp"
#include "resident_key.hpp"

namespace zkp::cuda::prover {

template <class BK>
class CudaKey final : public KeyState {
 public:
  using E = typename BK::Engine;
  using PK = typename BK::Proving;
  using Input = typename BK::Input;

  CudaKey(std::unique_ptr<BK> key, std::uint32_t device_count)
      : key_(std::move(key)),
        resident_(key_->proving_key(), device_count, sparse_builder(*key_)),
        stages_(key_->proving_key()) {}

  const backend::Key& host_key() const override { return *key_; }

  // With synthesis=device (BK's leave_ab(c)_to_the_device), what builds the constraint system
  // the device evaluates: a zkey's A and B, or the circuit of a bellperson key (A, B, C over
  // bellperson's rows). `key` outlives the ResidentKey (both are this object's).
  static typename ResidentKey<PK>::SparseBuilder sparse_builder(const BK& key) {
    using Fr = typename E::Fr;
    if constexpr (kBellpersonKey<PK>) {
      if (!key.abc_on_device()) return {};
      return [&key] { return synth::build_sparse_system<Fr>(*key.circuit(), key.key().num_inputs()); };
    } else {
      if (!key.ab_on_device()) return {};
      return [&key] {
        const auto& pk = key.proving_key();
        auto s = synth::build_sparse_system<Fr>(pk.zkey().coefficients(), pk.rows(), pk.n_vars());
        if (const R1cs* circuit = key.circuit()) synth::add_circuit_c(s, *circuit);  // the r1cs check
        return s;
      };
    }
  }
  LaneNeeds lane_needs(const ProverOptions& options) const override { return resident_.lane_needs(options); }
  std::string make_resident(DeviceSlot& device, const ProverOptions& options, ThreadPool& pool) override {
    std::shared_lock lk(host_bases_mutex_);  // the host copies stay while they are read
    if (!host_bases_kept() && !resident_.resident_on(device.index())) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "key " + key_->name() + " is not on " + device.label() +
                                                     " and its host bases were dropped meanwhile (host_bases=drop) by "
                                                     "another key_load of it: load it again");
    }
    return resident_.make_resident(device, options, pool);
  }
  bool resident_on(std::uint32_t gpu_index) const override { return resident_.resident_on(gpu_index); }
  std::uint64_t device_bytes(const ProverOptions& options) const override { return resident_.device_bytes(options); }
  bool can_place() const override {
    std::shared_lock lk(host_bases_mutex_);
    return host_bases_kept();
  }
  void drop_host_bases(const ProverOptions& options) override {
    if constexpr (kBellpersonKey<PK>) {
      std::unique_lock lk(host_bases_mutex_);
      key_->drop_host_queries(options.g2 == Placement::host);
    }
  }

  std::unique_ptr<zkp_prove_op_t> start(DeviceSlot& device, Lane& lane, const zkp_prove_input_t& input,
                                        const Context& ctx) override {
    Input checked = take_input(input, ctx);
    auto& sections = resident_.on(device);
    auto op = std::make_unique<Op>(device, std::static_pointer_cast<CudaKey>(shared_from_this()), std::move(checked),
                                   ctx.options.verify);
    device.in_flight.fetch_add(1);
    device.started.fetch_add(1);
    lane.post([this, &device, &lane, &sections, op = op.get(), job = op->job, &ctx](const Lane::Scratch& s) {
      stages_.run(device, lane, sections, op->input, *job, s, ctx);
    });
    return op;
  }

 private:
  // A bellperson caller's Montgomery synthesis is checked on the device when the H step and the
  // G2 MSM run there (the host stages need standard-form copies, so check on the host).
  Input take_input(const zkp_prove_input_t& input, const Context& ctx) const {
    if constexpr (kBellpersonKey<PK>) {
      if (ctx.options.h == Placement::device && ctx.options.g2 == Placement::device) {
        return key_->take_input_checked_on_device(input, ctx.pool);
      }
    }
    return key_->take_input(input, ctx.pool);
  }

  class Op final : public OpBase {
   public:
    Op(DeviceSlot& device, std::shared_ptr<CudaKey> key, Input in, bool self_check)
        : OpBase(device), key(std::move(key)), input(std::move(in)), self_check(self_check),
          job(std::make_shared<ProofJob<E>>()), done(job->done.get_future().share()) {}
    // The lane reads this op's input until it is done; an op dropped early (a failed
    // prove_finish) waits for it rather than free what the lane reads.
    ~Op() override {
      if (done.valid()) done.wait();
    }
    void finish(zkp_prove_output_t& out, DeviceStageTimes* times) override { key->finish(*this, out, times); }
    // The lane's stages are the input's last readers: the epilogue and the output read only
    // what take_input copied (r, s, the public inputs), and the stage sums.
    void wait_input_read() override { done.get(); }

    std::shared_ptr<CudaKey> key;
    Input input;
    const bool self_check;
    std::shared_ptr<ProofJob<E>> job;
    std::shared_future<void> done;  // shared: prove_wait and finish both read its outcome
  };

  void finish(Op& op, zkp_prove_output_t& out, DeviceStageTimes* times) const {
    key_->check_output(out);
    op.done.get();  // rethrows the lane's error
    ProofJob<E>& job = *op.job;
    const auto t0 = detail::Clock::now();
    const groth16::Proof<E> proof = groth16::epilogue<E>(key_->proving_key(), job.sums, op.input.r(), op.input.s());
    key_->write_output(proof, op.input, op.self_check, " from " + op.device().label(), out);
    job.times.epilogue_ms = detail::ms_since(t0);
    const auto ns = [](double ms) { return static_cast<std::uint64_t>(ms * 1e6); };
    out.gpu_index = static_cast<std::int32_t>(op.device().index());
    out.gpu_duration_ns = ns(job.times.span_ms);
    out.epilogue_ns = ns(job.times.epilogue_ms);
    out.msm_ns = ns(job.times.msm_ms());
    out.ntt_ns = ns(job.times.h_ms);
    if (times != nullptr) *times = job.times;
  }

  // Whether the bases can still go on a device: from host memory, or streamed from the file
  // (kept until drop_host_bases).
  bool host_bases_kept() const {
    if constexpr (kBellpersonKey<PK>) return key_->key().has_host_queries() || key_->key().queries_file() != nullptr;
    return true;
  }

  std::unique_ptr<BK> key_;
  mutable std::shared_mutex host_bases_mutex_;  // uploads (shared) against dropping the host copies
  ResidentKey<PK> resident_;
  ProofStages<PK, Input> stages_;
};

}  // namespace zkp::cuda::prover
