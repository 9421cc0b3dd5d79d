#include "device_server.hpp"

#include "channel.hpp"
#include "prove_buffer.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/host/plugin_library.hpp>
#include "prover.hpp"
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

using host::isolation::Frame;
using host::isolation::Op;
using host::isolation::SharedMemory;
using host::isolation::UniqueFd;
namespace prove_arg = host::isolation::prove_arg;
namespace prove_reply = host::isolation::prove_reply;
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
    host::isolation::send_frame(socket_, f);  // a host that is gone reads nothing: nothing to do
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
                      device_, f.text, host::isolation::kExitDeviceLost);
    host::log().flush();
    std::_Exit(host::isolation::kExitDeviceLost);
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
    if (!host::isolation::recv_frame(socket_, r, fd)) break;
    try {
      switch (static_cast<Op>(r.op)) {
        case Op::create: create(r, std::move(fd)); break;
        case Op::key_load: key_load(r, std::move(fd)); break;
        case Op::key_free: {  // answered, so the host knows the key is gone
          std::shared_ptr<Key> key;
          {
            std::lock_guard lock(keys_mu_);
            auto it = keys_.find(r.arg[0]);
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
  device_ = static_cast<int32_t>(r.arg[0]);
  host::log().set_level(static_cast<spdlog::level::level_enum>(r.arg[4]));  // the host's level
  auto facts = sdk::make_struct<zkp_prover_facts_t>();
  facts.workers_per_device = static_cast<uint32_t>(r.arg[1]);
  facts.synthesis_threads = static_cast<uint32_t>(r.arg[2]);
  facts.ops_per_worker = static_cast<uint32_t>(r.arg[3]);
  prover_ = host::Prover::create(host::PluginLibrary::open(fields[0]), facts, options);
  if (static_cast<uint32_t>(device_) >= prover_->device_count()) {
    throw Error(ZKP_ERR_DEVICE, "prover '" + prover_->name() + "' has " + std::to_string(prover_->device_count()) +
                                    " device(s); device " + std::to_string(device_) + " is not one of them");
  }
  proof_pool_.start(std::max(1u, facts.workers_per_device) * std::max(1u, facts.ops_per_worker));
  synthesis_pool_.start(std::max(1u, facts.synthesis_threads));
  Frame f = answer(r);
  f.arg[0] = prover_->device_count();
  f.arg[1] = prover_->flags();
  f.set_text(prover_->name());
  reply(f);
}

void Server::key_load(const Frame& r, UniqueFd fd) {
  if (!prover_) throw Error(ZKP_ERR_INTERNAL, "zkpipe-device: key_load before create");
  auto key = std::make_shared<Key>();
  key->bytes = SharedMemory::map(std::move(fd));
  auto source = sdk::make_struct<zkp_key_source_t>();
  source.format = static_cast<zkp_key_format_t>(r.arg[1]);
  if (r.arg[2] == 1) {
    source.path = reinterpret_cast<const char*>(key->bytes.data());
  } else {
    source.data = key->bytes.data();
    source.size = static_cast<size_t>(r.arg[3]);
  }
  key->handle = prover_->load_key(source, device_);
  key->info = prover_->key_info(*key->handle);
  Frame f = answer(r);
  const zkp_key_info_t& i = key->info;
  const uint64_t values[] = {i.curve, i.n_vars, i.n_public, i.domain_size, i.synthesis_bytes, i.proof_size,
                             i.public_size};
  std::copy(std::begin(values), std::end(values), f.arg);
  // A plugin without the entry (built before it) leaves the field 0 too; this says so for certain.
  f.arg[host::isolation::key_reply_synthesized_bytes] = prover_->synthesizes_into() ? i.synthesized_bytes : 0;
  {
    std::lock_guard lock(keys_mu_);
    keys_[r.arg[0]] = std::move(key);
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
  const zkp_device_info_t info = prover_->device_info(static_cast<uint32_t>(device_));
  Frame f = answer(r);
  const uint64_t values[] = {info.memory_bytes, info.memory_free_bytes, info.partitions_started,
                             info.partitions_proved, info.busy_ns};
  std::copy(std::begin(values), std::end(values), f.arg);
  f.set_text(info.name);
  reply(f);
}

void Server::prove(const Frame& r, const SharedMemory& memory) {
  Frame f = answer(r);
  try {
    const std::shared_ptr<Key> key = find_key(r.arg[prove_arg::key]);
    const uint64_t out_at = r.arg[prove_arg::output_offset];
    const uint64_t proof_cap = r.arg[prove_arg::proof_capacity], public_cap = r.arg[prove_arg::public_capacity];
    if (out_at > memory.size() || proof_cap + public_cap > memory.size() - out_at) {
      throw Error(ZKP_ERR_INTERNAL, "a partition's shared buffer is smaller than its request says");
    }
    auto input = sdk::make_struct<zkp_prove_input_t>();
    input.randomness = r.arg[prove_arg::has_randomness] != 0 ? memory.data() : nullptr;
    host::SynthesisHandle synthesis{nullptr, host::SynthesisFree{prover_.get()}};
    zkp_synthesized_t external{};
    if (r.arg[prove_arg::kind] == host::isolation::kKindSynthesized) {
      external = host::isolation::synthesized_view(memory, r);
      input.external = &external;
    } else {
      const zkp_witness_t witness = host::isolation::witness_view(memory, r);
      if (host::Status s = prover_->synthesize(*key->handle, witness, synthesis); !s.ok()) {
        throw_plugin_error(s, "synthesis");
      }
      input.synthesis = synthesis.get();
    }
    zkp_prove_op_t* op = nullptr;
    const auto worker = static_cast<uint32_t>(r.arg[prove_arg::worker]);
    if (host::Status s = prover_->prove_start(*key->handle, input, device_, worker, op); !s.ok()) {
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
    f.arg[prove_reply::proof_size] = out.proof_size;
    f.arg[prove_reply::public_size] = out.public_size;
    f.arg[prove_reply::gpu_duration_ns] = out.gpu_duration_ns;
    f.arg[prove_reply::epilogue_ns] = out.epilogue_ns;
    f.arg[prove_reply::msm_ns] = out.msm_ns;
    f.arg[prove_reply::ntt_ns] = out.ntt_ns;
    f.arg[prove_reply::flags] = out.flags;
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
    const std::shared_ptr<Key> key = find_key(r.arg[host::isolation::synthesize_arg::key]);
    const zkp_witness_t witness = host::isolation::synthesis_witness_view(memory, r);
    auto out = sdk::make_struct<zkp_synthesized_t>();
    const host::Status s =
        prover_->synthesize_into(*key->handle, witness, host::isolation::synthesis_target(memory, r), out);
    if (!s.ok()) throw_plugin_error(s, "synthesis");
    host::isolation::finish_synthesis(memory, r, out);
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
    const std::shared_ptr<Key> key = find_key(r.arg[0]);
    const uint64_t proof_size = r.arg[1], public_size = r.arg[2];
    if (proof_size + public_size > memory.size()) throw Error(ZKP_ERR_INTERNAL, "a verify buffer is too small");
    bool valid = false;
    const host::Status s = prover_->verify(*key->handle, {memory.data(), proof_size},
                                           {memory.data() + proof_size, public_size}, valid);
    if (!s.ok()) throw Error(s.code, s.message);
    f.arg[0] = valid ? 1 : 0;
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
