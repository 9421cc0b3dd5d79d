#include "device_server.hpp"

#include "channel.hpp"
#include "prove_buffer.hpp"
#include "prover.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/host/plugin_library.hpp>
#include <zkpipe/sdk/error.hpp>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace zkp::device {

namespace isolation = host::isolation;
using isolation::Frame;
using isolation::Op;
using isolation::SharedMemory;
using isolation::UniqueFd;
using sdk::Error;

namespace {

// A key as this process holds it: the prover's handle and the bytes it may read in place.
struct Key {
  SharedMemory bytes;  // declared first, unmapped last
  host::KeyHandle handle{nullptr, host::KeyFree{nullptr}};
  zkp_key_info_t info{};
};

// Threads that run submitted jobs in order of submission; stop() finishes what was submitted.
class Pool {
 public:
  ~Pool() { stop(); }
  void start(uint32_t threads) {
    for (uint32_t i = 0; i < threads; ++i) {
      threads_.emplace_back([this] {
        for (;;) {
          std::function<void()> job;
          {
            std::unique_lock lock(mu_);
            cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (jobs_.empty()) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
          }
          job();
        }
      });
    }
  }
  void stop() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }
  void submit(std::function<void()> job) {
    if (threads_.empty()) throw Error(ZKP_ERR_INTERNAL, "zkpipe-device: a request before create");
    {
      std::lock_guard lock(mu_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// The plugin's own message of a failed call: host::Prover begins it with what it called
// ("synthesis: ..."), and the host's side adds that again, as for a plugin in its own process,
// so the host reports what thread isolation reports.
[[noreturn]] void throw_plugin_error(const host::Status& s, std::string_view what) {
  std::string_view m = s.message;
  if (m.size() > what.size() + 2 && m.substr(0, what.size()) == what && m.substr(what.size(), 2) == ": ") {
    m.remove_prefix(what.size() + 2);
  }
  throw Error(s.code, std::string(m));
}

class Server {
 public:
  explicit Server(int socket) : socket_(socket) {}
  ~Server() { stop_pools(); }

  int run();

 private:
  void reply(const Frame& f) {
    std::lock_guard lock(send_mu_);
    isolation::send_frame(socket_, f);  // a host that is gone reads nothing: nothing to do
    if (f.status == ZKP_ERR_DEVICE_LOST) exit_device_lost(f);
  }
  // The prover's device is unusable for good in this process (a sticky fault broke its
  // context): every later call here would fail too, so the process ends once the host has the
  // reply and the host starts a new one. _Exit, not a return through the destructors: freeing
  // keys and the prover would call into the broken context, which may hang or crash. Called
  // under send_mu_, so no other reply goes out after this one.
  [[noreturn]] void exit_device_lost(const Frame& f) const {
    host::log().error("zkpipe-device (device {}): the prover reports the device lost ({}); exiting with status {} "
                      "so that the host starts a new process for it",
                      device_, f.text, isolation::kExitDeviceLost);
    host::log().flush();
    std::_Exit(isolation::kExitDeviceLost);
  }
  static Frame answer(const Frame& request) {
    Frame f;
    f.op = request.op;
    f.id = request.id;
    return f;
  }
  static void fail(Frame& f, zkp_status_t code, const std::string& message) {
    f.status = code;
    f.set_text(message);
  }

  void create(const Frame& r, UniqueFd fd);
  void key_load(const Frame& r, UniqueFd fd);
  void device_info(const Frame& r);
  void prove(const Frame& r, const SharedMemory& memory);
  void verify(const Frame& r, const SharedMemory& memory);
  std::shared_ptr<Key> find_key(uint64_t id);

  void synthesize(const Frame& r, const SharedMemory& memory);
  void stop_pools() {
    synthesis_pool_.stop();
    proof_pool_.stop();
  }

  const int socket_;
  std::mutex send_mu_;
  std::unique_ptr<host::Prover> prover_;
  int32_t device_ = 0;

  std::mutex keys_mu_;  // leaf; never held across a prover call
  std::map<uint64_t, std::shared_ptr<Key>> keys_;

  Pool proof_pool_;      // prove and verify: as many threads as the host has ops in flight here
  Pool synthesis_pool_;  // synthesize: the host's synthesis_threads, so synthesis overlaps proving
};

int Server::run() {
  for (;;) {
    Frame r;
    UniqueFd fd;
    if (!isolation::recv_frame(socket_, r, fd)) break;
    try {
      switch (static_cast<Op>(r.op)) {
        case Op::create: create(r, std::move(fd)); break;
        case Op::key_load: key_load(r, std::move(fd)); break;
        case Op::key_free: {  // answered, so the host knows the key is gone
          std::shared_ptr<Key> key;
          {
            std::lock_guard lock(keys_mu_);
            auto it = keys_.find(r.get<isolation::KeyFreeRequest>().key);
            if (it != keys_.end()) key = std::move(it->second), keys_.erase(it);
          }
          key.reset();  // freed here, outside the lock (the host has no partition of it in flight)
          reply(answer(r));
          break;
        }
        case Op::device_info: device_info(r); break;
        case Op::prove:
        case Op::verify: {
          auto memory = std::make_shared<SharedMemory>(SharedMemory::map(std::move(fd)));
          proof_pool_.submit([this, r, memory] {
            if (static_cast<Op>(r.op) == Op::prove) prove(r, *memory);
            else verify(r, *memory);
          });
          break;
        }
        case Op::synthesize: {
          auto memory = std::make_shared<SharedMemory>(SharedMemory::map(std::move(fd)));
          synthesis_pool_.submit([this, r, memory] { synthesize(r, *memory); });
          break;
        }
        default: {
          Frame f = answer(r);
          fail(f, ZKP_ERR_INTERNAL, "zkpipe-device: unknown request " + std::to_string(r.op));
          reply(f);
        }
      }
    } catch (const std::exception& e) {
      Frame f = answer(r);
      const auto* error = dynamic_cast<const Error*>(&e);
      fail(f, error != nullptr ? error->status() : ZKP_ERR_INTERNAL, e.what());
      reply(f);
    }
  }
  stop_pools();
  {
    std::lock_guard lock(keys_mu_);
    keys_.clear();
  }
  prover_.reset();
  return 0;
}

void Server::create(const Frame& r, UniqueFd fd) {
  if (prover_) throw Error(ZKP_ERR_INTERNAL, "zkpipe-device: create sent twice");
  const SharedMemory spec = SharedMemory::map(std::move(fd));
  // plugin path '\0' then key '\0' value '\0' pairs
  std::vector<std::string> fields;
  const char* p = reinterpret_cast<const char*>(spec.data());
  const char* end = p + spec.size();
  while (p < end) {
    const char* nul = static_cast<const char*>(std::memchr(p, '\0', static_cast<size_t>(end - p)));
    if (nul == nullptr) break;
    fields.emplace_back(p, nul);
    p = nul + 1;
  }
  if (fields.empty() || fields.size() % 2 != 1) throw Error(ZKP_ERR_INTERNAL, "zkpipe-device: a malformed create");
  std::vector<host::PluginOption> options;
  for (size_t i = 1; i + 1 < fields.size(); i += 2) options.push_back({fields[i], fields[i + 1]});
  const auto request = r.get<isolation::CreateRequest>();
  device_ = static_cast<int32_t>(request.device);
  host::log().set_level(static_cast<spdlog::level::level_enum>(request.log_level));  // the host's level
  const zkp_prover_facts_t& facts = request.facts;
  prover_ = host::Prover::create(host::PluginLibrary::open(fields[0]), facts, options);
  if (static_cast<uint32_t>(device_) >= prover_->device_count()) {
    throw Error(ZKP_ERR_DEVICE, "prover '" + prover_->name() + "' has " + std::to_string(prover_->device_count()) +
                                    " device(s); device " + std::to_string(device_) + " is not one of them");
  }
  proof_pool_.start(std::max(1u, facts.workers_per_device) * std::max(1u, facts.ops_per_worker));
  synthesis_pool_.start(std::max(1u, facts.synthesis_threads));
  Frame f = answer(r);
  f.put(isolation::CreateReply{.device_count = prover_->device_count(), .flags = prover_->flags()});
  f.set_text(prover_->name());
  reply(f);
}

void Server::key_load(const Frame& r, UniqueFd fd) {
  if (!prover_) throw Error(ZKP_ERR_INTERNAL, "zkpipe-device: key_load before create");
  const auto request = r.get<isolation::KeyLoadRequest>();
  auto key = std::make_shared<Key>();
  key->bytes = SharedMemory::map(std::move(fd));
  auto source = sdk::make_struct<zkp_key_source_t>();
  source.format = request.format;
  if (request.is_path) {
    source.path = reinterpret_cast<const char*>(key->bytes.data());
  } else {
    source.data = key->bytes.data();
    source.size = static_cast<size_t>(request.size);
  }
  key->handle = prover_->load_key(source, device_);
  key->info = prover_->key_info(*key->handle);
  isolation::KeyLoadReply loaded{.info = key->info};
  // A plugin without the entry (built before it) leaves the field 0 too; this says so for certain.
  if (!prover_->synthesizes_into()) loaded.info.synthesized_bytes = 0;
  Frame f = answer(r);
  f.put(loaded);
  {
    std::lock_guard lock(keys_mu_);
    keys_[request.key] = std::move(key);
  }
  reply(f);
}

std::shared_ptr<Key> Server::find_key(uint64_t id) {
  std::lock_guard lock(keys_mu_);
  auto it = keys_.find(id);
  if (it == keys_.end()) throw Error(ZKP_ERR_NOT_FOUND, "zkpipe-device: key " + std::to_string(id) + " is not loaded");
  return it->second;
}

void Server::device_info(const Frame& r) {
  if (!prover_) throw Error(ZKP_ERR_INTERNAL, "zkpipe-device: device_info before create");
  Frame f = answer(r);
  f.put(isolation::DeviceInfoReply{.info = prover_->device_info(static_cast<uint32_t>(device_))});
  reply(f);
}

void Server::prove(const Frame& r, const SharedMemory& memory) {
  Frame f = answer(r);
  try {
    const auto request = r.get<isolation::ProveRequest>();
    const std::shared_ptr<Key> key = find_key(request.key);
    const uint64_t out_at = request.output_offset;
    const uint64_t proof_cap = request.proof_capacity, public_cap = request.public_capacity;
    if (out_at > memory.size() || proof_cap + public_cap > memory.size() - out_at) {
      throw Error(ZKP_ERR_INTERNAL, "a partition's shared buffer is smaller than its request says");
    }
    auto input = sdk::make_struct<zkp_prove_input_t>();
    input.randomness = request.has_randomness ? memory.data() : nullptr;
    host::SynthesisHandle synthesis{nullptr, host::SynthesisFree{prover_.get()}};
    zkp_synthesized_t external{};
    if (request.kind == isolation::kKindSynthesized) {
      external = isolation::synthesized_view(memory, request);
      input.external = &external;
    } else {
      const zkp_witness_t witness = isolation::witness_view(memory, request);
      if (host::Status s = prover_->synthesize(*key->handle, witness, synthesis); !s.ok()) {
        throw_plugin_error(s, "synthesis");
      }
      input.synthesis = synthesis.get();
    }
    zkp_prove_op_t* op = nullptr;
    if (host::Status s = prover_->prove_start(*key->handle, input, device_, request.worker, op); !s.ok()) {
      throw_plugin_error(s, "prove_start");
    }
    auto out = sdk::make_struct<zkp_prove_output_t>();
    out.proof = memory.data() + out_at;
    out.proof_capacity = proof_cap;
    out.public_inputs = memory.data() + out_at + proof_cap;
    out.public_capacity = public_cap;
    if (host::Status s = prover_->prove_finish(op, out); !s.ok()) throw_plugin_error(s, "prove_finish");
    if (out.gpu_index != device_) {
      throw Error(ZKP_ERR_INTERNAL, "prover '" + prover_->name() + "' reports the proof ran on device " +
                                        std::to_string(out.gpu_index) + ", not " + std::to_string(device_));
    }
    f.put(isolation::ProveReply{.proof_size = out.proof_size,
                                .public_size = out.public_size,
                                .gpu_duration_ns = out.gpu_duration_ns,
                                .epilogue_ns = out.epilogue_ns,
                                .msm_ns = out.msm_ns,
                                .ntt_ns = out.ntt_ns,
                                .flags = out.flags});
  } catch (const Error& e) {
    fail(f, e.status(), e.what());
  } catch (const std::exception& e) {
    fail(f, ZKP_ERR_INTERNAL, std::string("zkpipe-device: ") + e.what());
  }
  reply(f);
}

void Server::synthesize(const Frame& r, const SharedMemory& memory) {
  Frame f = answer(r);
  try {
    const auto request = r.get<isolation::SynthesizeRequest>();
    const std::shared_ptr<Key> key = find_key(request.key);
    const zkp_witness_t witness = isolation::synthesis_witness_view(memory, request);
    auto out = sdk::make_struct<zkp_synthesized_t>();
    const host::Status s =
        prover_->synthesize_into(*key->handle, witness, isolation::synthesis_target(memory, request), out);
    if (!s.ok()) throw_plugin_error(s, "synthesis");
    isolation::finish_synthesis(memory, request, out);
  } catch (const Error& e) {
    fail(f, e.status(), e.what());
  } catch (const std::exception& e) {
    fail(f, ZKP_ERR_INTERNAL, std::string("zkpipe-device: ") + e.what());
  }
  reply(f);
}

void Server::verify(const Frame& r, const SharedMemory& memory) {
  Frame f = answer(r);
  try {
    const auto request = r.get<isolation::VerifyRequest>();
    const std::shared_ptr<Key> key = find_key(request.key);
    const uint64_t proof_size = request.proof_size, public_size = request.public_size;
    if (proof_size + public_size > memory.size()) throw Error(ZKP_ERR_INTERNAL, "a verify buffer is too small");
    bool valid = false;
    const host::Status s = prover_->verify(*key->handle, {memory.data(), proof_size},
                                           {memory.data() + proof_size, public_size}, valid);
    if (!s.ok()) throw Error(s.code, s.message);
    f.put(isolation::VerifyReply{.valid = valid ? 1 : 0});
  } catch (const Error& e) {
    fail(f, e.status(), e.what());
  } catch (const std::exception& e) {
    fail(f, ZKP_ERR_INTERNAL, std::string("zkpipe-device: ") + e.what());
  }
  reply(f);
}

}  // namespace

int serve(int socket) {
  Server server(socket);
  return server.run();
}

}  // namespace zkp::device
