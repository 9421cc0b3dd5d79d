#include "prover.hpp"

#include <zkpipe/sdk/error.hpp>

#include "isolation/isolated_prover.hpp"

#include <cstddef>

namespace zkp::host {

using sdk::Error;
using sdk::make_struct;

namespace {

// Throws with the prover's message when a non-hot-path call fails.
void check(const Status& s) {
  if (!s.ok()) throw Error(s.code, s.message);
}

}  // namespace

void KeyFree::operator()(zkp_key_t* key) const {
  prover->prover_->key_free(prover->prover_.get(), key);
}

void SynthesisFree::operator()(zkp_synthesis_t* synthesis) const {
  prover->prover_->synthesis_free(prover->prover_.get(), synthesis);
}

Prover::Prover(std::shared_ptr<PluginLibrary> library, std::unique_ptr<PluginServices> services)
    : library_(std::move(library)), services_(std::move(services)) {}

Prover::~Prover() = default;

std::unique_ptr<Prover> Prover::create(std::shared_ptr<PluginLibrary> library, const zkp_prover_facts_t& facts,
                                       const std::vector<PluginOption>& options) {
  const auto* factory = static_cast<const zkp_prover_factory_t*>(
      library->require_factory(ZKP_PROVER_FACTORY_ID, "prover"));
  const std::string what = library->describe();
  // The first release's table ends at create; create_with_facts came after it.
  constexpr size_t kFirstTableSize = offsetof(zkp_prover_factory_t, create) + sizeof(factory->create);
  constexpr size_t kFactsTableSize =
      offsetof(zkp_prover_factory_t, create_with_facts) + sizeof(factory->create_with_facts);
  if (factory->header.struct_size < kFirstTableSize || factory->create == nullptr) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": its prover factory table is incomplete");
  }
  const bool with_facts =
      sdk::covers(factory->header, kFactsTableSize) && factory->create_with_facts != nullptr;
  auto services = PluginServices::create("prover " + library->name());
  std::unique_ptr<Prover> self(new Prover(library, std::move(services)));
  self->told_facts_ = with_facts;

  const auto c_options = to_c_options(options);
  auto err = make_struct<zkp_error_t>();
  zkp_prover_t* raw = nullptr;
  const zkp_status_t status =
      with_facts ? factory->create_with_facts(self->services_->get(), &facts, c_options.data(), c_options.size(),
                                              &raw, &err)
                 : factory->create(self->services_->get(), c_options.data(), c_options.size(), &raw, &err);
  if (status != ZKP_OK) {
    const std::string message =
        err.message[0] != '\0' ? std::string(err.message) : what + ": create failed: " + zkp_status_name(status);
    // A refused option is reported with where it was written (file:line or the override).
    throw Error(status, status == ZKP_ERR_INVALID_ARGUMENT ? with_option_origins(message, options, "prover") : message);
  }
  if (raw == nullptr) throw Error(ZKP_ERR_INTERNAL, what + ": create returned no prover");
  self->take(raw, what);
  return self;
}

std::unique_ptr<Prover> Prover::adopt(zkp_prover_t* table, isolation::DeviceControl* control) {
  std::unique_ptr<Prover> self(new Prover(nullptr, nullptr));
  self->control_ = control;
  self->take(table, "the isolated prover");
  return self;
}

void Prover::take(zkp_prover_t* raw, const std::string& what) {
  // The first release's table ends at verify; synthesize_into came after it.
  constexpr size_t kFirstTableSize = offsetof(zkp_prover_t, verify) + sizeof(raw->verify);
  if (raw->header.struct_size < kFirstTableSize || raw->destroy == nullptr) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": zkp_prover_t has struct_size " +
                                          std::to_string(raw->header.struct_size) +
                                          ", expected at least " + std::to_string(kFirstTableSize));
  }
  prover_.reset(raw);
  const zkp_prover_t& p = *raw;
  if (p.device_count == nullptr || p.device_info == nullptr || p.key_load == nullptr ||
      p.key_info == nullptr || p.key_free == nullptr || p.synthesize == nullptr ||
      p.synthesis_free == nullptr || p.prove_start == nullptr || p.prove_finish == nullptr ||
      ((p.flags & ZKP_PROVER_FLAG_VERIFY) != 0 && p.verify == nullptr)) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": zkp_prover_t has a NULL function");
  }
  synthesizes_into_ = sdk::covers(p.header, offsetof(zkp_prover_t, synthesize_into) + sizeof(p.synthesize_into)) &&
                     p.synthesize_into != nullptr;
  waits_ = sdk::covers(p.header, offsetof(zkp_prover_t, prove_wait) + sizeof(p.prove_wait)) && p.prove_wait != nullptr;
  name_ = p.name != nullptr ? p.name : library_ != nullptr ? library_->name() : "isolated";
  device_count_ = p.device_count(raw);
  if (device_count_ == 0) throw Error(ZKP_ERR_DEVICE, "prover '" + name_ + "' has no devices");
}

void Prover::device_hung(uint32_t device, const std::string& reason) {
  if (control_ != nullptr) control_->kill_device(device, reason);
}

uint64_t Prover::device_restarts() const { return control_ != nullptr ? control_->restarts() : 0; }

void Prover::on_device_back(std::function<void(uint32_t)> hook) {
  if (control_ != nullptr) control_->on_device_back(std::move(hook));
}

zkp_device_info_t Prover::device_info(uint32_t gpu_index) const {
  auto out = make_struct<zkp_device_info_t>();
  auto err = make_struct<zkp_error_t>();
  check(Status::from_call(prover_->device_info(prover_.get(), gpu_index, &out, &err), err,
                          "prover '" + name_ + "': device_info"));
  return out;
}

KeyHandle Prover::load_key(const zkp_key_source_t& source, int32_t gpu_index) {
  auto err = make_struct<zkp_error_t>();
  zkp_key_t* raw = nullptr;
  check(Status::from_call(prover_->key_load(prover_.get(), &source, gpu_index, &raw, &err), err,
                          "prover '" + name_ + "': key_load"));
  if (raw == nullptr) throw Error(ZKP_ERR_INTERNAL, "prover '" + name_ + "': key_load returned no key");
  return KeyHandle(raw, KeyFree{this});
}

zkp_key_info_t Prover::key_info(const zkp_key_t& key) const {
  auto out = make_struct<zkp_key_info_t>();
  auto err = make_struct<zkp_error_t>();
  check(Status::from_call(prover_->key_info(prover_.get(), &key, &out, &err), err,
                          "prover '" + name_ + "': key_info"));
  return out;
}

Status Prover::synthesize(const zkp_key_t& key, const zkp_witness_t& witness, SynthesisHandle& out) {
  auto err = make_struct<zkp_error_t>();
  zkp_synthesis_t* raw = nullptr;
  const zkp_status_t code = prover_->synthesize(prover_.get(), &key, &witness, &raw, &err);
  if (code == ZKP_OK && raw == nullptr) return {ZKP_ERR_INTERNAL, "synthesize returned no synthesis"};
  if (code == ZKP_OK) out = SynthesisHandle(raw, SynthesisFree{this});
  return Status::from_call(code, err, "synthesis");
}

Status Prover::synthesize_into(const zkp_key_t& key, const zkp_witness_t& witness, std::span<uint8_t> buffer,
                               zkp_synthesized_t& out) {
  if (!synthesizes_into_) return {ZKP_ERR_UNSUPPORTED, "synthesis: prover '" + name_ + "' has no synthesize_into"};
  auto err = make_struct<zkp_error_t>();
  const zkp_status_t code =
      prover_->synthesize_into(prover_.get(), &key, &witness, buffer.data(), buffer.size(), &out, &err);
  return Status::from_call(code, err, "synthesis");
}

Status Prover::prove_start(const zkp_key_t& key, const zkp_prove_input_t& input, int32_t gpu_index,
                           uint32_t worker, zkp_prove_op_t*& op) {
  auto err = make_struct<zkp_error_t>();
  op = nullptr;
  const zkp_status_t code = prover_->prove_start(prover_.get(), &key, &input, gpu_index, worker, &op, &err);
  if (code == ZKP_OK && op == nullptr) return {ZKP_ERR_INTERNAL, "prove_start returned no operation"};
  return Status::from_call(code, err, "prove_start");
}

Status Prover::prove_wait(zkp_prove_op_t* op) {
  if (!waits_) return {ZKP_ERR_UNSUPPORTED, "prover '" + name_ + "' has no prove_wait"};
  auto err = make_struct<zkp_error_t>();
  return Status::from_call(prover_->prove_wait(prover_.get(), op, &err), err, "prove_wait");
}

Status Prover::prove_finish(zkp_prove_op_t* op, zkp_prove_output_t& out) {
  auto err = make_struct<zkp_error_t>();
  return Status::from_call(prover_->prove_finish(prover_.get(), op, &out, &err), err, "prove_finish");
}

Status Prover::verify(const zkp_key_t& key, std::span<const uint8_t> proof,
                      std::span<const uint8_t> public_inputs, bool& valid, const std::string& what) const {
  auto err = make_struct<zkp_error_t>();
  int32_t result = 0;
  const zkp_status_t code = prover_->verify(prover_.get(), &key, proof.data(), proof.size(),
                                            public_inputs.data(), public_inputs.size(), &result, &err);
  valid = code == ZKP_OK && result == 1;
  return Status::from_call(code, err, what);
}

}  // namespace zkp::host
