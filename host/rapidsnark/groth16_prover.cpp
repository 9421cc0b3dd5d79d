#include "groth16_prover.hpp"

#include <prover.h>

#include <memory>
#include <string>

#include "core/formats/error.hpp"
#include "core/formats/mapped_file.hpp"
#include "core/formats/wtns.hpp"
#include "error_message.hpp"
#include "host_settings.hpp"
#include "services/rapidsnark_json.hpp"
#include "services/names.hpp"

namespace zkp::rapidsnark {
namespace {

zkp_error_t fresh_error() {
  zkp_error_t e{};
  e.header = ZKP_HEADER_INIT(zkp_error_t);
  return e;
}

void check(zkp_status_t status, const zkp_error_t& err) {
  if (status != ZKP_OK) throw Failure(PROVER_ERROR, err.message);
}

template <class T>
T fresh_struct() {
  T value{};
  value.header = ZKP_HEADER_INIT(T);
  return value;
}

Curve to_curve(zkp_curve_t c) {
  if (const std::optional<Curve> curve = services::formats_curve(c)) return *curve;
  throw Failure(PROVER_ERROR, "zkey curve not supported");
}

// The one partition's record, copied out of the completion (valid only during the callback).
struct Outcome {
  zkp_status_t status = ZKP_ERR_INTERNAL;
  std::string message = "the proof never completed";
  ByteVec proof;
  ByteVec public_inputs;
};

void on_partition(void* user_data, const zkp_completion_t* record) noexcept {
  auto& out = *static_cast<Outcome*>(user_data);
  try {
    out.status = record->status;
    out.message = record->message;
    if (record->status != ZKP_OK) return;
    const auto* proof = reinterpret_cast<const std::byte*>(record->proof);
    if (proof != nullptr) out.proof.assign(proof, proof + record->proof_size);
    const auto* pub = reinterpret_cast<const std::byte*>(record->public_inputs);
    if (pub != nullptr) out.public_inputs.assign(pub, pub + record->public_size);
  } catch (...) {
    out.status = ZKP_ERR_OUT_OF_MEMORY;
    out.message = "out of memory copying the proof";
  }
}

}  // namespace

Groth16Prover::Groth16Prover(std::vector<std::byte> owned_key) : key_bytes_(std::move(owned_key)) {
  const HostSettings settings = host_settings_from_environment();
  std::vector<const char*> overrides;
  for (const std::string& o : settings.overrides) overrides.push_back(o.c_str());
  zkp_error_t err = fresh_error();
  zkp_host_t* host = nullptr;
  check(zkp_host_create(settings.config_file ? settings.config_file->c_str() : nullptr, overrides.data(),
                        overrides.size(), &host, &err),
        err);
  host_.reset(host);
}

Groth16Prover::~Groth16Prover() = default;

void Groth16Prover::load(const zkp_key_source_t& source) {
  zkp_error_t err = fresh_error();
  check(zkp_host_load_key(host_.get(), &source, &key_id_, &err), err);
  info_ = fresh_struct<zkp_key_info_t>();
  check(zkp_host_key_info(host_.get(), key_id_, &info_, &err), err);
  curve_ = to_curve(info_.curve);
}

std::unique_ptr<Groth16Prover> Groth16Prover::from_file(const std::string& path) {
  std::unique_ptr<Groth16Prover> p(new Groth16Prover({}));
  auto source = fresh_struct<zkp_key_source_t>();
  source.path = path.c_str();
  source.format = ZKP_KEY_FORMAT_ZKEY;
  p->load(source);
  return p;
}

std::unique_ptr<Groth16Prover> Groth16Prover::from_bytes(ByteView zkey) {
  std::unique_ptr<Groth16Prover> p(new Groth16Prover(std::vector<std::byte>(zkey.begin(), zkey.end())));
  auto source = fresh_struct<zkp_key_source_t>();
  source.data = p->key_bytes_.data();
  source.size = p->key_bytes_.size();
  source.format = ZKP_KEY_FORMAT_ZKEY;
  p->load(source);
  return p;
}

ProofText Groth16Prover::prove(ByteView wtns) const {
  // rapidsnark's checks first, with its codes: the witness's own header, then its length.
  Wtns witness = [&] {
    try {
      return read_wtns(ByteSource::borrow(wtns, "wtns"));
    } catch (const FormatError& e) {
      throw Failure(PROVER_ERROR, e.what());
    }
  }();
  if (witness.size() != info_.n_vars) {
    throw Failure(PROVER_INVALID_WITNESS_LENGTH, "Invalid witness length. Circuit: " + std::to_string(info_.n_vars) +
                                                     ", witness: " + std::to_string(witness.size()));
  }
  if (witness.curve() != curve_) {
    throw Failure(PROVER_ERROR, "different wtns curve: the witness is over " + std::string(curve_info(witness.curve()).name) +
                                    "'s scalar field, the zkey is for " + std::string(curve_info(curve_).name));
  }

  auto partition = fresh_struct<zkp_partition_t>();
  partition.witness = fresh_struct<zkp_witness_t>();
  partition.witness.kind = ZKP_WITNESS_WTNS_BUFFER;
  partition.witness.data = wtns.data();
  partition.witness.size = wtns.size();
  auto outcome_owner = std::make_unique<Outcome>();
  Outcome& outcome = *outcome_owner;
  auto job = fresh_struct<zkp_job_t>();
  job.key_id = key_id_;
  job.partitions = &partition;
  job.partition_count = 1;
  job.gpu_index = -1;
  job.on_partition = &on_partition;
  job.user_data = &outcome;
  zkp_error_t err = fresh_error();
  uint64_t job_id = 0;
  check(zkp_host_submit(host_.get(), &job, &job_id, &err), err);
  if (zkp_host_wait(host_.get(), job_id, -1, &err) != ZKP_OK) {  // on success, after the callback
    // The job may still run and its callback write the record: leave it to the job.
    static_cast<void>(outcome_owner.release());
    throw Failure(PROVER_ERROR, err.message);
  }
  if (outcome.status != ZKP_OK) throw Failure(PROVER_ERROR, outcome.message);
  if (outcome.proof.empty()) throw Failure(PROVER_ERROR, "the backend produced no proof bytes (a simulated prover?)");
  return {proof_json(curve_, outcome.proof), public_json(outcome.public_inputs, ZKP_SCALAR_SIZE)};
}

}  // namespace zkp::rapidsnark
