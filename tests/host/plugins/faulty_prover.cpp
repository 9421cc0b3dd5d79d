// The `faulty` prover (tests only): another prover plugin, wrapped at the ABI, that fails
// on purpose, so the host's fault handling can be tested without a GPU.
//
// It opens the plugin `inner` (a path: libzkp_prover_cpu.so for real proofs that verify,
// libzkp_prover_sim.so for cheap ones), creates its prover with every option
// "inner.KEY=VALUE" as KEY=VALUE, and forwards each call. It shows `devices` virtual
// devices (default: the inner prover's count); virtual device d runs on inner device
// d mod (inner count), so one CPU can stand in for several GPUs. Keys and syntheses are the
// inner prover's own handles; only the op is wrapped.
//
// The fault: `fault` happens to the `fault_at`-th partition started (prove_start calls,
// counting from 1, retries included) on `fault_device` (-1: on any device), or, with
// fault_probability > 0, to each partition with that probability (a PRNG seeded with `seed`):
//   abort         abort() in prove_start (SIGABRT)
//   segv          a write through a null pointer in prove_start (SIGSEGV)
//   hang_start    prove_start sleeps hang_ms (0: forever), then goes on normally
//   hang_finish   prove_finish sleeps hang_ms (0: forever) before it finishes
//   device_error  prove_finish fails with ZKP_ERR_DEVICE (a sticky device error)
//   device_lost   prove_finish fails with ZKP_ERR_DEVICE_LOST, and from then on so does every
//                 prove_start on that device in this process, as on a GPU whose context a sticky
//                 fault broke (a new process, with fault_once, finds the device healthy)
//   hook          prove_start calls zkp_test_fault_hook(inner device) of the library `hook` (a
//                 path), then proves through the inner prover as usual: a fault made where the
//                 proof runs, e.g. a broken CUDA context (tests/cuda_prover/cuda_fault_hook.cpp)
//   corrupt       prove_finish returns the proof with one byte flipped, not flagged as
//                 checked by the prover (ZKP_PROVE_OUTPUT_VERIFIED cleared)
//   synthesis_segv   a write through a null pointer in synthesize_into (SIGSEGV)
//   synthesis_error  synthesize_into fails with ZKP_ERR_BAD_INPUT ("faulty: injected synthesis error")
// The two synthesis faults count synthesize_into calls instead; their device is the one the
// process loaded its keys on (isolation = process: its one device), -1 when it loaded on all.
// table=first hands the host the first release's table, which ends at verify: a plugin built
// before synthesize_into (the host must not read past struct_size, and falls back).
// fault_once=PATH: the fault happens at most once among every process that shares PATH,
// which the first one creates (O_EXCL): a restarted device process counts again from 1.
#include <zkpipe/zkp_plugin.h>
#include <zkpipe/zkp_prover.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

enum class Fault {
  none, abort_, segv, hang_start, hang_finish, device_error, device_lost, hook, corrupt, synthesis_segv, synthesis_error
};

constexpr const char* kOptionsHelp =
    "inner=               path of the prover plugin to wrap (required)\n"
    "inner.KEY=VALUE      option KEY of the inner prover\n"
    "devices=0            virtual devices (0: the inner prover's count)\n"
    "fault=none           none, abort, segv, hang_start, hang_finish, device_error, device_lost,\n"
    "                     hook, corrupt,\n"
    "                     synthesis_segv or synthesis_error\n"
    "table=current        current, or first (the first release's table, without synthesize_into)\n"
    "fault_at=1           the fault hits the Nth partition started on fault_device\n"
    "fault_device=-1      the device whose partitions are counted (-1: any)\n"
    "fault_probability=0  instead of fault_at: each partition with this probability\n"
    "seed=1               seed of fault_probability's generator\n"
    "hang_ms=0            how long a hang lasts (0: forever)\n"
    "fault_once=          a file: the fault happens once among the processes sharing it\n"
    "hook=                fault=hook: the library whose zkp_test_fault_hook(device) makes the fault\n";

void set_error(zkp_error_t* err, zkp_status_t status, const std::string& message) {
  if (err == nullptr) return;
  err->status = status;
  const size_t n = std::min(message.size(), sizeof err->message - 1);
  std::memcpy(err->message, message.data(), n);
  err->message[n] = '\0';
}

struct Settings {
  std::string inner;
  std::vector<std::pair<std::string, std::string>> inner_options;
  uint32_t devices = 0;
  Fault fault = Fault::none;
  uint64_t fault_at = 1;
  int64_t fault_device = -1;
  double probability = 0;
  uint64_t seed = 1;
  uint64_t hang_ms = 0;
  std::string once;
  std::string hook;
  bool first_table = false;
};

bool parse_fault(std::string_view v, Fault& out) {
  static const std::pair<std::string_view, Fault> kNames[] = {
      {"none", Fault::none},           {"abort", Fault::abort_},           {"segv", Fault::segv},
      {"hang_start", Fault::hang_start}, {"hang_finish", Fault::hang_finish}, {"device_error", Fault::device_error},
      {"device_lost", Fault::device_lost},  {"hook", Fault::hook},  {"corrupt", Fault::corrupt},     {"synthesis_segv", Fault::synthesis_segv},
      {"synthesis_error", Fault::synthesis_error}};
  for (const auto& [name, f] : kNames) {
    if (v == name) {
      out = f;
      return true;
    }
  }
  return false;
}

// Throws std::string with the message of a bad option.
Settings read_settings(const zkp_option_t* options, size_t count) {
  Settings s;
  auto number = [](const std::string& key, const std::string& v) {
    char* end = nullptr;
    const long long n = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0') throw "faulty: option " + key + "=" + v + " is not an integer";
    return n;
  };
  for (size_t i = 0; i < count; ++i) {
    const std::string key = options[i].key != nullptr ? options[i].key : "";
    const std::string value = options[i].value != nullptr ? options[i].value : "";
    if (key.rfind("inner.", 0) == 0) {
      s.inner_options.emplace_back(key.substr(6), value);
    } else if (key == "inner") {
      s.inner = value;
    } else if (key == "devices") {
      s.devices = static_cast<uint32_t>(number(key, value));
    } else if (key == "fault") {
      if (!parse_fault(value, s.fault)) throw "faulty: option fault=" + value + " is not a fault this prover knows";
    } else if (key == "fault_at") {
      s.fault_at = static_cast<uint64_t>(number(key, value));
    } else if (key == "fault_device") {
      s.fault_device = number(key, value);
    } else if (key == "fault_probability") {
      s.probability = std::strtod(value.c_str(), nullptr);
    } else if (key == "seed") {
      s.seed = static_cast<uint64_t>(number(key, value));
    } else if (key == "hang_ms") {
      s.hang_ms = static_cast<uint64_t>(number(key, value));
    } else if (key == "fault_once") {
      s.once = value;
    } else if (key == "hook") {
      s.hook = value;
    } else if (key == "table") {
      if (value != "current" && value != "first") throw "faulty: option table=" + value + " is not current or first";
      s.first_table = value == "first";
    } else {
      throw "faulty: unknown option '" + key + "'";
    }
  }
  if (s.inner.empty()) throw std::string("faulty: option inner (the prover plugin to wrap) is required");
  if (s.fault == Fault::hook && s.hook.empty()) throw std::string("faulty: fault=hook needs option hook (a library path)");
  return s;
}

struct FaultyProver;

// Handed out as the opaque zkp_prove_op_t* (a cast there and back).
struct FaultyOp {
  zkp_prove_op_t* inner = nullptr;
  int32_t device = 0;  // virtual
  Fault fault = Fault::none;
};

struct FaultyProver {
  zkp_prover_t table{};
  Settings settings;
  void* library = nullptr;
  const zkp_plugin_entry_t* entry = nullptr;
  zkp_prover_t* inner = nullptr;
  uint32_t inner_devices = 1;
  std::string name;
  std::atomic<uint64_t> counted{0};
  std::atomic<int32_t> home{-1};  // the device keys were loaded on (synthesis faults)
  std::mutex rng_mu;
  std::mt19937_64 rng;
  std::mutex lost_mu;
  std::vector<int32_t> lost;  // virtual devices a device_lost fault broke in this process

  void mark_lost(int32_t device) {
    std::lock_guard lock(lost_mu);
    lost.push_back(device);
  }
  bool is_lost(int32_t device) {
    std::lock_guard lock(lost_mu);
    return std::find(lost.begin(), lost.end(), device) != lost.end();
  }

  ~FaultyProver() {
    if (inner != nullptr) inner->destroy(inner);
    if (entry != nullptr && entry->deinit != nullptr) entry->deinit();
    if (library != nullptr) dlclose(library);
  }

  int32_t inner_device(int32_t virtual_device) const {
    return virtual_device < 0 ? -1 : static_cast<int32_t>(static_cast<uint32_t>(virtual_device) % inner_devices);
  }

  // The fault for a partition starting on virtual device `device`.
  static bool is_synthesis(Fault f) { return f == Fault::synthesis_segv || f == Fault::synthesis_error; }

  // The fault for a partition starting on virtual device `device` (prove_start), or for a
  // synthesis (synthesis = true) in a process whose keys are on `device`.
  Fault draw(int32_t device, bool synthesis = false) {
    if (settings.fault == Fault::none || is_synthesis(settings.fault) != synthesis) return Fault::none;
    if (settings.fault_device >= 0 && settings.fault_device != device) return Fault::none;
    bool hit = false;
    if (settings.probability > 0) {
      std::lock_guard lock(rng_mu);
      hit = std::uniform_real_distribution<double>(0, 1)(rng) < settings.probability;
    } else {
      hit = ++counted == settings.fault_at;
    }
    if (!hit) return Fault::none;
    if (!settings.once.empty()) {
      const int fd = ::open(settings.once.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
      if (fd < 0) return Fault::none;  // it happened already (or cannot be recorded: then never)
      ::close(fd);
    }
    return settings.fault;
  }

  void hang() const {
    if (settings.hang_ms != 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(settings.hang_ms));
      return;
    }
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
  }
};

FaultyProver& self_of(const zkp_prover_t* p) { return *static_cast<FaultyProver*>(p->impl); }

void ZKP_CALL destroy(zkp_prover_t* p) { delete &self_of(p); }

uint32_t ZKP_CALL device_count(const zkp_prover_t* p) {
  const FaultyProver& me = self_of(p);
  return me.settings.devices != 0 ? me.settings.devices : me.inner_devices;
}

zkp_status_t ZKP_CALL device_info(const zkp_prover_t* p, uint32_t gpu_index, zkp_device_info_t* out,
                                  zkp_error_t* err) {
  const FaultyProver& me = self_of(p);
  if (gpu_index >= device_count(p)) {
    set_error(err, ZKP_ERR_INVALID_ARGUMENT, "faulty: no device " + std::to_string(gpu_index));
    return ZKP_ERR_INVALID_ARGUMENT;
  }
  const zkp_status_t s = me.inner->device_info(me.inner, gpu_index % me.inner_devices, out, err);
  if (s == ZKP_OK) {
    const std::string name = "faulty device " + std::to_string(gpu_index) + " on " + out->name;
    std::snprintf(out->name, sizeof out->name, "%s", name.c_str());
  }
  return s;
}

zkp_status_t ZKP_CALL key_load(zkp_prover_t* p, const zkp_key_source_t* source, int32_t gpu_index, zkp_key_t** out,
                               zkp_error_t* err) {
  FaultyProver& me = self_of(p);
  me.home = gpu_index;
  return me.inner->key_load(me.inner, source, me.inner_device(gpu_index), out, err);
}

zkp_status_t ZKP_CALL key_info(const zkp_prover_t* p, const zkp_key_t* key, zkp_key_info_t* out, zkp_error_t* err) {
  const FaultyProver& me = self_of(p);
  return me.inner->key_info(me.inner, key, out, err);
}

void ZKP_CALL key_free(zkp_prover_t* p, zkp_key_t* key) {
  FaultyProver& me = self_of(p);
  me.inner->key_free(me.inner, key);
}

zkp_status_t ZKP_CALL synthesize(zkp_prover_t* p, const zkp_key_t* key, const zkp_witness_t* witness,
                                 zkp_synthesis_t** out, zkp_error_t* err) {
  FaultyProver& me = self_of(p);
  return me.inner->synthesize(me.inner, key, witness, out, err);
}

zkp_status_t ZKP_CALL synthesize_into(zkp_prover_t* p, const zkp_key_t* key, const zkp_witness_t* witness,
                                      uint8_t* buffer, size_t size, zkp_synthesized_t* out, zkp_error_t* err) {
  FaultyProver& me = self_of(p);
  switch (me.draw(me.home, true)) {
    case Fault::synthesis_segv: {
      volatile int* nowhere = nullptr;
      *nowhere = 1;  // NOLINT: the point of this prover
      std::abort();
    }
    case Fault::synthesis_error:
      set_error(err, ZKP_ERR_BAD_INPUT, "faulty: injected synthesis error on device " + std::to_string(me.home));
      return ZKP_ERR_BAD_INPUT;
    default:
      break;
  }
  return me.inner->synthesize_into(me.inner, key, witness, buffer, size, out, err);
}

void ZKP_CALL synthesis_free(zkp_prover_t* p, zkp_synthesis_t* synthesis) {
  FaultyProver& me = self_of(p);
  me.inner->synthesis_free(me.inner, synthesis);
}

zkp_status_t ZKP_CALL prove_start(zkp_prover_t* p, const zkp_key_t* key, const zkp_prove_input_t* input,
                                  int32_t gpu_index, uint32_t worker, zkp_prove_op_t** op, zkp_error_t* err) {
  FaultyProver& me = self_of(p);
  if (me.is_lost(gpu_index)) {
    set_error(err, ZKP_ERR_DEVICE_LOST,
              "faulty: device " + std::to_string(gpu_index) + " was lost earlier in this process (injected)");
    return ZKP_ERR_DEVICE_LOST;
  }
  const Fault fault = me.draw(gpu_index);
  switch (fault) {
    case Fault::abort_:
      std::abort();
    case Fault::segv: {
      volatile int* nowhere = nullptr;
      *nowhere = 1;  // NOLINT: the point of this prover
      std::abort();  // if the write did not fault
    }
    case Fault::hang_start:
      me.hang();
      break;
    case Fault::hook: {
      // Loaded when the fault happens, in the process that proves (a device process under
      // isolation = process), and kept loaded: what it did must outlive the call.
      void* library = dlopen(me.settings.hook.c_str(), RTLD_NOW | RTLD_LOCAL);
      using Hook = int (*)(int32_t);
      auto* fn = library != nullptr ? reinterpret_cast<Hook>(dlsym(library, "zkp_test_fault_hook")) : nullptr;
      if (fn == nullptr) {
        const char* why = dlerror();
        set_error(err, ZKP_ERR_INTERNAL,
                  "faulty: hook library " + me.settings.hook + ": " + (why != nullptr ? why : "no zkp_test_fault_hook"));
        return ZKP_ERR_INTERNAL;
      }
      if (fn(me.inner_device(gpu_index)) != 0) {
        set_error(err, ZKP_ERR_INTERNAL, "faulty: the hook did not make its fault on device " + std::to_string(gpu_index));
        return ZKP_ERR_INTERNAL;
      }
      break;
    }
    default:
      break;
  }
  auto wrapped = std::make_unique<FaultyOp>();
  wrapped->device = gpu_index;
  wrapped->fault = fault;
  const zkp_status_t s = me.inner->prove_start(me.inner, key, input, me.inner_device(gpu_index), worker,
                                               &wrapped->inner, err);
  if (s != ZKP_OK) return s;
  *op = reinterpret_cast<zkp_prove_op_t*>(wrapped.release());
  return ZKP_OK;
}

zkp_status_t ZKP_CALL prove_finish(zkp_prover_t* p, zkp_prove_op_t* raw, zkp_prove_output_t* out, zkp_error_t* err) {
  FaultyProver& me = self_of(p);
  std::unique_ptr<FaultyOp> op(reinterpret_cast<FaultyOp*>(raw));
  if (op->fault == Fault::hang_finish) me.hang();
  const zkp_status_t s = me.inner->prove_finish(me.inner, op->inner, out, err);
  if (s != ZKP_OK) return s;
  out->gpu_index = op->device;
  if (op->fault == Fault::device_error) {
    set_error(err, ZKP_ERR_DEVICE, "faulty: injected device error on device " + std::to_string(op->device));
    return ZKP_ERR_DEVICE;
  }
  if (op->fault == Fault::device_lost) {
    me.mark_lost(op->device);
    set_error(err, ZKP_ERR_DEVICE_LOST, "faulty: injected device loss on device " + std::to_string(op->device));
    return ZKP_ERR_DEVICE_LOST;
  }
  if (op->fault == Fault::corrupt) {
    if (out->proof_size > 0) out->proof[out->proof_size / 2] ^= 0x5a;
    constexpr size_t kFlagsEnd = offsetof(zkp_prove_output_t, flags) + sizeof(uint32_t);
    if (out->header.struct_size >= kFlagsEnd) out->flags &= ~ZKP_PROVE_OUTPUT_VERIFIED;
  }
  return ZKP_OK;
}

zkp_status_t ZKP_CALL verify(const zkp_prover_t* p, const zkp_key_t* key, const uint8_t* proof, size_t proof_size,
                             const uint8_t* public_inputs, size_t public_size, int32_t* valid, zkp_error_t* err) {
  const FaultyProver& me = self_of(p);
  return me.inner->verify(me.inner, key, proof, proof_size, public_inputs, public_size, valid, err);
}

zkp_status_t open_inner(FaultyProver& me, const zkp_host_services_t* host, const zkp_prover_facts_t* facts,
                        zkp_error_t* err) {
  const std::string& path = me.settings.inner;
  me.library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (me.library == nullptr) {
    const char* why = dlerror();
    set_error(err, ZKP_ERR_NOT_FOUND, "faulty: cannot open inner prover " + path + ": " + (why ? why : "?"));
    return ZKP_ERR_NOT_FOUND;
  }
  const auto* entry = static_cast<const zkp_plugin_entry_t*>(dlsym(me.library, ZKP_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr || entry->abi_version_min > 1 || entry->abi_version_max < 1) {
    set_error(err, ZKP_ERR_ABI_MISMATCH, "faulty: " + path + " is not a prover plugin of ABI version 1");
    return ZKP_ERR_ABI_MISMATCH;
  }
  if (entry->init != nullptr) {
    if (const zkp_status_t s = entry->init(1, err); s != ZKP_OK) return s;
  }
  me.entry = entry;
  const auto* factory = static_cast<const zkp_prover_factory_t*>(entry->get_factory(ZKP_PROVER_FACTORY_ID));
  if (factory == nullptr) {
    set_error(err, ZKP_ERR_ABI_MISMATCH, "faulty: " + path + " has no prover factory");
    return ZKP_ERR_ABI_MISMATCH;
  }
  std::vector<zkp_option_t> options;
  for (const auto& [k, v] : me.settings.inner_options) options.push_back({k.c_str(), v.c_str()});
  constexpr size_t kFactsTable = offsetof(zkp_prover_factory_t, create_with_facts) + sizeof(void*);
  const bool with_facts = factory->header.struct_size >= kFactsTable && factory->create_with_facts != nullptr && facts != nullptr;
  const zkp_status_t s = with_facts
                             ? factory->create_with_facts(host, facts, options.data(), options.size(), &me.inner, err)
                             : factory->create(host, options.data(), options.size(), &me.inner, err);
  if (s != ZKP_OK) return s;
  me.inner_devices = me.inner->device_count(me.inner);
  if (me.inner_devices == 0) {
    set_error(err, ZKP_ERR_DEVICE, "faulty: the inner prover has no devices");
    return ZKP_ERR_DEVICE;
  }
  return ZKP_OK;
}

zkp_status_t ZKP_CALL create_with_facts(const zkp_host_services_t* host, const zkp_prover_facts_t* facts,
                                        const zkp_option_t* options, size_t count, zkp_prover_t** out,
                                        zkp_error_t* err) {
  auto me = std::make_unique<FaultyProver>();
  try {
    me->settings = read_settings(options, count);
  } catch (const std::string& message) {
    set_error(err, ZKP_ERR_INVALID_ARGUMENT, message);
    return ZKP_ERR_INVALID_ARGUMENT;
  }
  me->rng.seed(me->settings.seed);
  if (const zkp_status_t s = open_inner(*me, host, facts, err); s != ZKP_OK) return s;
  me->name = std::string("faulty(") + (me->inner->name != nullptr ? me->inner->name : "?") + ")";
  zkp_prover_t& t = me->table;
  t.header = ZKP_HEADER_INIT(zkp_prover_t);
  t.impl = me.get();
  t.name = me->name.c_str();
  t.flags = me->inner->flags;
  t.destroy = &destroy;
  t.device_count = &device_count;
  t.device_info = &device_info;
  t.key_load = &key_load;
  t.key_info = &key_info;
  t.key_free = &key_free;
  t.synthesize = &synthesize;
  t.synthesis_free = &synthesis_free;
  t.prove_start = &prove_start;
  t.prove_finish = &prove_finish;
  t.verify = me->inner->verify != nullptr ? &verify : nullptr;
  constexpr size_t kIntoEnd = offsetof(zkp_prover_t, synthesize_into) + sizeof(void*);
  const bool inner_into = me->inner->header.struct_size >= kIntoEnd && me->inner->synthesize_into != nullptr;
  t.synthesize_into = inner_into ? &synthesize_into : nullptr;
  // The first release's table ends at verify: an older host, or a plugin built before it, reads no further.
  if (me->settings.first_table) t.header.struct_size = offsetof(zkp_prover_t, synthesize_into);
  *out = &me.release()->table;
  return ZKP_OK;
}

zkp_status_t ZKP_CALL create(const zkp_host_services_t* host, const zkp_option_t* options, size_t count,
                             zkp_prover_t** out, zkp_error_t* err) {
  return create_with_facts(host, nullptr, options, count, out, err);
}

const zkp_prover_factory_t kFactory = {ZKP_HEADER_INIT(zkp_prover_factory_t), kOptionsHelp, &create,
                                       &create_with_facts};

zkp_status_t ZKP_CALL init(uint32_t, zkp_error_t*) { return ZKP_OK; }
void ZKP_CALL deinit() {}
const void* ZKP_CALL get_factory(const char* id) {
  return std::strcmp(id, ZKP_PROVER_FACTORY_ID) == 0 ? &kFactory : nullptr;
}

}  // namespace

extern "C" ZKP_EXPORT_ATTR const zkp_plugin_entry_t zkp_plugin_entry = {
    ZKP_HEADER_INIT(zkp_plugin_entry_t), 1, 1, "faulty", "1.0.0",
    "a prover plugin wrapped to crash, hang, fail or corrupt proofs on purpose (tests only)", &init, &deinit,
    &get_factory};
