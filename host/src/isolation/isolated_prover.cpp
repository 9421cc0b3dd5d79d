#include "isolation/isolated_prover.hpp"

#include "prove_buffer.hpp"

#include "job.hpp"
#include "status.hpp"
#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace zkp::host::isolation {

using sdk::Error;

// prove_start copies a job's r || s (kRandomnessBytes) into the buffer's randomness region.
static_assert(kRandomnessRegionBytes == kRandomnessBytes);

namespace {

// Behind a zkp_key_t*: what every device loaded.
struct Key {
  uint64_t id = 0;
  zkp_key_info_t info{};
  std::vector<uint32_t> devices;
  // key_info.synthesized_bytes as every device process reported it: 0 when any cannot
  // synthesize into shared memory, and then synthesis stays on the proving path.
  uint64_t synthesized_bytes = 0;
};
// Behind a zkp_synthesis_t*: the witness waiting in its shared buffer, or (synthesized in a
// device process) the partition's caller-synthesized inputs, which any device can prove.
struct Synthesis {
  std::shared_ptr<ProveBuffer> buffer;
};
// Behind a zkp_prove_op_t*: the request in flight.
struct PendingProof {
  std::shared_ptr<ProveBuffer> buffer;
  std::shared_ptr<DeviceProcess::Call> call;
  int32_t device = 0;
};

Key* key_of(const zkp_key_t* k) { return reinterpret_cast<Key*>(const_cast<zkp_key_t*>(k)); }

void check_reply(const Frame& reply) {
  if (reply.status != ZKP_OK) throw Error(static_cast<zkp_status_t>(reply.status), reply.text);
}

class Isolated final : public DeviceControl {
 public:
  explicit Isolated(const DeviceProcessSpec& spec) : synthesize_ahead_(spec.synthesize_ahead) {
    const DeviceProcess::BackHook back = [this](uint32_t d) { device_back(d); };
    devices_.push_back(std::make_unique<DeviceProcess>(spec, 0, back));
    for (uint32_t d = 1; d < devices_[0]->device_count(); ++d) {
      devices_.push_back(std::make_unique<DeviceProcess>(spec, d, back));
    }
    name_ = devices_[0]->prover_name();
    table_.header = {sizeof(zkp_prover_t), 1};
    table_.impl = this;
    table_.name = name_.c_str();
    table_.flags = devices_[0]->flags();
    table_.destroy = [](zkp_prover_t* self) { delete self_of(self); };
    table_.device_count = [](const zkp_prover_t* self) { return static_cast<uint32_t>(self_of(self)->devices_.size()); };
    table_.device_info = [](const zkp_prover_t* self, uint32_t gpu, zkp_device_info_t* out, zkp_error_t* err) {
      return sdk::guard(err, [&] { self_of(self)->device_info(gpu, *out); });
    };
    table_.key_load = [](zkp_prover_t* self, const zkp_key_source_t* source, int32_t gpu, zkp_key_t** out,
                         zkp_error_t* err) {
      return sdk::guard(err, [&] { *out = reinterpret_cast<zkp_key_t*>(self_of(self)->key_load(*source, gpu)); });
    };
    table_.key_info = [](const zkp_prover_t*, const zkp_key_t* key, zkp_key_info_t* out, zkp_error_t* err) {
      return sdk::guard(err, [&] { *out = key_of(key)->info; });
    };
    table_.key_free = [](zkp_prover_t* self, zkp_key_t* key) { self_of(self)->key_free(key_of(key)); };
    table_.synthesize = [](zkp_prover_t* self, const zkp_key_t* key, const zkp_witness_t* witness,
                           zkp_synthesis_t** out, zkp_error_t* err) {
      return sdk::guard(err, [&] {
        auto s = std::make_unique<Synthesis>();
        s->buffer = self_of(self)->synthesize(*key_of(key), *witness);
        *out = reinterpret_cast<zkp_synthesis_t*>(s.release());
      });
    };
    table_.synthesis_free = [](zkp_prover_t*, zkp_synthesis_t* s) { delete reinterpret_cast<Synthesis*>(s); };
    table_.prove_start = [](zkp_prover_t* self, const zkp_key_t* key, const zkp_prove_input_t* input, int32_t gpu,
                            uint32_t worker, zkp_prove_op_t** op, zkp_error_t* err) {
      return sdk::guard(err, [&] {
        *op = reinterpret_cast<zkp_prove_op_t*>(self_of(self)->prove_start(*key_of(key), *input, gpu, worker));
      });
    };
    table_.prove_finish = [](zkp_prover_t*, zkp_prove_op_t* op, zkp_prove_output_t* out, zkp_error_t* err) {
      std::unique_ptr<PendingProof> owned(reinterpret_cast<PendingProof*>(op));  // freed whatever it returns
      return sdk::guard(err, [&] { prove_finish(*owned, *out); });
    };
    // prove_start copied a caller's input (and a synthesis lives in a buffer of the host's) into
    // the memory it shares with the device process: nothing of the input is read after it.
    table_.prove_wait = [](zkp_prover_t*, zkp_prove_op_t*, zkp_error_t*) -> zkp_status_t { return ZKP_OK; };
    table_.verify = [](const zkp_prover_t* self, const zkp_key_t* key, const uint8_t* proof, size_t proof_size,
                       const uint8_t* public_inputs, size_t public_size, int32_t* valid, zkp_error_t* err) {
      return sdk::guard(err, [&] {
        *valid = self_of(self)->verify(*key_of(key), {proof, proof_size}, {public_inputs, public_size}) ? 1 : 0;
      });
    };
  }

  zkp_prover_t* table() { return &table_; }

  void kill_device(uint32_t device, const std::string& reason) override {
    if (device < devices_.size()) devices_[device]->kill(reason);
  }
  uint64_t restarts() const override {
    uint64_t n = 0;
    for (const auto& d : devices_) n += d->restarts();
    return n;
  }
  void on_device_back(std::function<void(uint32_t)> hook) override {
    std::lock_guard lock(hook_mu_);
    hook_ = std::move(hook);
  }

 private:
  static Isolated* self_of(const zkp_prover_t* p) { return static_cast<Isolated*>(p->impl); }

  // A keeper thread: the device's restarted process serves again.
  void device_back(uint32_t device) {
    std::lock_guard lock(hook_mu_);  // held through the call: on_device_back waits for it
    if (hook_) hook_(device);
  }

  DeviceProcess& device(int32_t gpu) {
    if (gpu < 0 || static_cast<size_t>(gpu) >= devices_.size()) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "gpu_index " + std::to_string(gpu) + " is out of range");
    }
    return *devices_[static_cast<size_t>(gpu)];
  }

  void device_info(uint32_t gpu, zkp_device_info_t& out) {
    Frame r;
    r.op = static_cast<uint32_t>(Op::device_info);
    const Frame reply = device(static_cast<int32_t>(gpu)).call(r);
    check_reply(reply);
    // Field by field: out's header is the caller's.
    const zkp_device_info_t info = reply.get<DeviceInfoReply>().info;
    std::strncpy(out.name, info.name, sizeof(out.name) - 1);
    out.name[sizeof(out.name) - 1] = '\0';
    out.memory_bytes = info.memory_bytes;
    out.memory_free_bytes = info.memory_free_bytes;
    out.partitions_started = info.partitions_started;
    out.partitions_proved = info.partitions_proved;
    out.busy_ns = info.busy_ns;
  }

  Key* key_load(const zkp_key_source_t& source, int32_t gpu) {
    auto bytes = std::make_shared<KeyBytes>();
    const bool has_format = sdk::covers(source.header, offsetof(zkp_key_source_t, format) + sizeof(source.format));
    bytes->format = has_format ? source.format : ZKP_KEY_FORMAT_ZKEY;
    if (source.path != nullptr) {
      const size_t n = std::strlen(source.path) + 1;
      bytes->is_path = true;
      bytes->memory = SharedMemory::create(n, "zkpipe-key-path");
      std::memcpy(bytes->memory.data(), source.path, n);
    } else {
      if (source.data == nullptr || source.size == 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "a key source without data");
      bytes->size = source.size;
      bytes->memory = SharedMemory::create(source.size, "zkpipe-key");
      std::memcpy(bytes->memory.data(), source.data, source.size);  // once; every process reads it in place
    }
    auto key = std::make_unique<Key>();
    key->id = next_key_id_++;
    for (uint32_t d = 0; d < devices_.size(); ++d) {
      if (gpu != -1 && static_cast<uint32_t>(gpu) != d) continue;
      const Frame reply = device(static_cast<int32_t>(d)).load_key(key->id, bytes);
      if (reply.status != ZKP_OK) {
        key_free(key.get());
        check_reply(reply);
      }
      const zkp_key_info_t info = reply.get<KeyLoadReply>().info;
      if (key->devices.empty()) {
        key->info = info;
        // This table has no synthesize_into: the key's synthesized_bytes is the device
        // processes' business (key->synthesized_bytes), and 0 here, as zkp_prover.h requires.
        key->info.synthesized_bytes = 0;
        key->synthesized_bytes = info.synthesized_bytes;
      } else if (info.synthesized_bytes != key->synthesized_bytes) {
        key->synthesized_bytes = 0;  // the devices disagree: keep to the path every one of them has
      }
      key->devices.push_back(d);
    }
    if (!synthesize_ahead_) key->synthesized_bytes = 0;  // isolation_synthesis = inline
    if (key->synthesized_bytes != 0) {
      // The partition's shared buffer holds its synthesized inputs until the proof is done (and
      // its witness until synthesized): reserve that, if it is more than the plugin's synthesis.
      const uint64_t buffer = 2 * kRandomnessBytes + key->synthesized_bytes + key->info.proof_size +
                              key->info.public_size + uint64_t{key->info.n_vars} * ZKP_SCALAR_SIZE;
      key->info.synthesis_bytes = std::max(key->info.synthesis_bytes, buffer);
    }
    return key.release();
  }

  // synthesize (see the header): in the least busy device process holding the key, into the
  // partition's shared buffer, when every one of them can (synthesized_bytes); else the
  // witness is packed for the device process to synthesize right before the proof.
  std::shared_ptr<ProveBuffer> synthesize(const Key& key, const zkp_witness_t& witness) {
    const zkp_key_info_t& info = key.info;
    if (key.synthesized_bytes == 0) {
      return std::make_shared<ProveBuffer>(pack_witness(witness, info.proof_size, info.public_size));
    }
    auto buffer = std::make_shared<ProveBuffer>(
        pack_for_synthesis(witness, key.synthesized_bytes, info.proof_size, info.public_size));
    SynthesizeRequest request{.key = key.id};
    buffer->describe_synthesis(request);
    Frame r;
    r.put(request);
    // A process that dies meanwhile (ZKP_ERR_DEVICE; or DEVICE_LOST, and it exits) fails only
    // this attempt: another one synthesizes it, each device at most once.
    std::vector<uint32_t> tried;
    Frame reply;
    while (DeviceProcess* process = least_busy(key, tried)) {
      reply = process->call(r, buffer->memory.fd());
      if (!device_failure(reply.status)) break;
    }
    if (tried.empty()) throw Error(ZKP_ERR_DEVICE, "no device process holds the key");
    check_reply(reply);
    buffer->release_witness();
    return buffer;
  }

  // The device of `key` with the fewest requests in flight, serving ones first, that is not in
  // `tried` (and is added to it); ties go to the lowest index. Null when every one was tried.
  DeviceProcess* least_busy(const Key& key, std::vector<uint32_t>& tried) {
    int64_t best = -1;
    bool best_up = false;
    size_t best_load = 0;
    for (uint32_t d : key.devices) {
      if (std::find(tried.begin(), tried.end(), d) != tried.end()) continue;
      const bool up = devices_[d]->up();
      const size_t load = devices_[d]->in_flight();
      if (best < 0 || (up && !best_up) || (up == best_up && load < best_load)) {
        best = d;
        best_up = up;
        best_load = load;
      }
    }
    if (best < 0) return nullptr;
    tried.push_back(static_cast<uint32_t>(best));
    return devices_[static_cast<size_t>(best)].get();
  }

  void key_free(Key* key) {
    for (uint32_t d : key->devices) devices_[d]->free_key(key->id);
    delete key;
  }

  PendingProof* prove_start(const Key& key, const zkp_prove_input_t& input, int32_t gpu, uint32_t worker) {
    DeviceProcess& process = device(gpu);
    auto op = std::make_unique<PendingProof>();
    op->device = gpu;
    if (input.synthesis != nullptr) {
      op->buffer = reinterpret_cast<const Synthesis*>(input.synthesis)->buffer;
    } else if (input.external != nullptr) {
      op->buffer = std::make_shared<ProveBuffer>(pack_synthesized(*input.external, key.info.proof_size,
                                                                  key.info.public_size));
    } else {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_prove_input_t has neither synthesis nor external");
    }
    ProveRequest request{.key = key.id, .worker = worker};
    if (input.randomness != nullptr) {
      std::memcpy(op->buffer->memory.data(), input.randomness, kRandomnessBytes);
      request.has_randomness = true;
    }
    op->buffer->describe(request);
    Frame r;
    r.put(request);
    op->call = process.send(r, op->buffer->memory.fd());
    return op.release();
  }

  static void prove_finish(const PendingProof& op, zkp_prove_output_t& out) {
    const Frame reply = DeviceProcess::wait(*op.call);
    check_reply(reply);
    const ProveReply proved = reply.get<ProveReply>();
    const size_t proof_size = proved.proof_size, public_size = proved.public_size;
    out.proof_size = proof_size;
    out.public_size = public_size;
    if (proof_size > out.proof_capacity || public_size > out.public_capacity) {
      throw Error(ZKP_ERR_SHORT_BUFFER, "the proof needs " + std::to_string(proof_size) + " + " +
                                            std::to_string(public_size) + " bytes");
    }
    if (proof_size > op.buffer->proof_capacity || public_size > op.buffer->public_capacity) {
      throw Error(ZKP_ERR_INTERNAL, "zkpipe-device wrote more than the shared buffer holds");
    }
    const uint8_t* at = op.buffer->memory.data() + op.buffer->output_offset;
    if (proof_size != 0) std::memcpy(out.proof, at, proof_size);
    if (public_size != 0) std::memcpy(out.public_inputs, at + op.buffer->proof_capacity, public_size);
    out.gpu_index = op.device;
    out.gpu_duration_ns = proved.gpu_duration_ns;
    out.epilogue_ns = proved.epilogue_ns;
    out.msm_ns = proved.msm_ns;
    out.ntt_ns = proved.ntt_ns;
    if (sdk::covers(out.header, offsetof(zkp_prove_output_t, flags) + sizeof(out.flags))) {
      out.flags = proved.flags;
    }
  }

  bool verify(const Key& key, std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) {
    SharedMemory m = SharedMemory::create(proof.size() + public_inputs.size(), "zkpipe-verify");
    if (!proof.empty()) std::memcpy(m.data(), proof.data(), proof.size());
    if (!public_inputs.empty()) std::memcpy(m.data() + proof.size(), public_inputs.data(), public_inputs.size());
    Frame r;
    r.put(VerifyRequest{.key = key.id, .proof_size = proof.size(), .public_size = public_inputs.size()});
    // Any serving device checks it; one restarting is skipped, not waited for.
    Frame reply;
    reply.status = ZKP_ERR_DEVICE;
    reply.set_text(std::string_view("no device process is serving"));
    for (uint32_t d : key.devices) {
      if (!devices_[d]->up()) continue;
      reply = devices_[d]->call(r, m.fd());
      if (!device_failure(reply.status)) break;
    }
    check_reply(reply);
    return reply.get<VerifyReply>().valid == 1;
  }

  const bool synthesize_ahead_;  // isolation_synthesis = ahead
  std::mutex hook_mu_;           // before the pipeline's scheduler lock, which the hook takes
  std::function<void(uint32_t)> hook_;
  // After the hook: destroyed before it (joining the keepers), so no keeper calls device_back
  // once hook_ is gone.
  std::vector<std::unique_ptr<DeviceProcess>> devices_;
  std::string name_;
  zkp_prover_t table_{};
  std::atomic<uint64_t> next_key_id_{1};
};

}  // namespace

zkp_prover_t* create_isolated_prover(const DeviceProcessSpec& spec, DeviceControl** control) {
  auto self = std::make_unique<Isolated>(spec);
  *control = self.get();
  return self.release()->table();
}

}  // namespace zkp::host::isolation
