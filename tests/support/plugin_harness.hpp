// Drives prover plugins through their C ABI only, as a host does: dlopen, the "zkp.prover/1"
// factory, key_load → synthesize → prove_start → prove_finish. Shared by the cpu plugin test
// (tests/groth16) and the cuda prover tests (which compare the cuda plugin with the cpu one).
// The key handle, the prover pointer and the proof itself are zkp_prover_calls's
// (host/cli/prover_calls), the same code `zkpipe check-plugin` drives plugins with.
#pragma once

#include "prover_calls/prover_calls.hpp"

#include <dlfcn.h>
#include <zkpipe/zkp_plugin.h>
#include <zkpipe/zkp_prover.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace zkp::test {

// A path built into the test, overridable from the environment for a build run on another
// machine (run_on_device.sh sets ZKPIPE_CUDA_PLUGIN, ZKPIPE_CPU_PLUGIN, ZKPIPE_GREEDY_PACER and
// ZKPIPE_VECTORS_DIR).
inline std::string setting(const char* env, const char* built_in) {
  const char* v = std::getenv(env);
  return v != nullptr && *v != 0 ? v : built_in;
}

template <class T>
T make() {
  T v{};
  v.header = ZKP_HEADER_INIT(T);
  return v;
}

class Library {
 public:
  explicit Library(const std::string& path) : handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (handle_ == nullptr) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    entry_ = static_cast<const zkp_plugin_entry_t*>(dlsym(handle_, ZKP_PLUGIN_ENTRY_SYMBOL));
    if (entry_ == nullptr) throw std::runtime_error(path + ": no zkp_plugin_entry");
    zkp_error_t err = make<zkp_error_t>();
    if (entry_->init(ZKP_ABI_VERSION, &err) != ZKP_OK) throw std::runtime_error(err.message);
    factory_ = static_cast<const zkp_prover_factory_t*>(entry_->get_factory(ZKP_PROVER_FACTORY_ID));
    if (factory_ == nullptr) throw std::runtime_error(path + ": no prover factory");
  }
  ~Library() {
    entry_->deinit();
    dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  const zkp_plugin_entry_t& entry() const { return *entry_; }
  const zkp_prover_factory_t& factory() const { return *factory_; }

 private:
  void* handle_;
  const zkp_plugin_entry_t* entry_ = nullptr;
  const zkp_prover_factory_t* factory_ = nullptr;
};

using Options = std::vector<std::pair<std::string, std::string>>;
using prover_calls::ProverPtr;

// Creates a prover as the host does: with its facts (workers_per_device: the host workers, which
// are the cuda prover's lanes per device).
inline zkp_status_t create(const Library& lib, const Options& options, ProverPtr& out, zkp_error_t& err,
                           uint32_t workers_per_device = 2) {
  std::vector<zkp_option_t> opts;
  for (const auto& [k, v] : options) opts.push_back({k.c_str(), v.c_str()});
  zkp_prover_t* p = nullptr;
  zkp_prover_facts_t facts{};
  facts.header = ZKP_HEADER_INIT(zkp_prover_facts_t);
  facts.workers_per_device = workers_per_device;
  facts.synthesis_threads = 1;
  facts.ops_per_worker = 2;
  const zkp_status_t s = lib.factory().create_with_facts(nullptr, &facts, opts.data(), opts.size(), &p, &err);
  out = prover_calls::adopt_prover(p);
  return s;
}

// A loaded key, freed with its prover.
using Key = prover_calls::LoadedKey;
using prover_calls::load_key;

inline zkp_key_info_t info_of(zkp_prover_t* p, const zkp_key_t* key) {
  auto info = make<zkp_key_info_t>();
  zkp_error_t err = make<zkp_error_t>();
  if (p->key_info(p, key, &info, &err) != ZKP_OK) throw std::runtime_error(err.message);
  return info;
}

inline zkp_device_info_t device_info(zkp_prover_t* p, uint32_t gpu_index) {
  auto d = make<zkp_device_info_t>();
  zkp_error_t err = make<zkp_error_t>();
  if (p->device_info(p, gpu_index, &d, &err) != ZKP_OK) throw std::runtime_error(err.message);
  return d;
}

struct Output {
  std::vector<std::uint8_t> proof, publics;
  zkp_prove_output_t out = make<zkp_prove_output_t>();
  Output(std::size_t proof_size, std::size_t public_size) : proof(proof_size), publics(public_size) {
    out.proof = proof.data();
    out.proof_capacity = proof.size();
    out.public_inputs = publics.data();
    out.public_capacity = publics.size();
  }
  explicit Output(const zkp_key_info_t& info) : Output(info.proof_size, info.public_size) {}
};

// A .wtns witness record that owns its path, so a record made from a temporary string never
// points into freed memory. It converts to the zkp_witness_t the ABI takes; it cannot be
// copied (the record points into this object's own string).
class WtnsFile {
 public:
  explicit WtnsFile(std::string path) : path_(std::move(path)), record_(make<zkp_witness_t>()) {
    record_.kind = ZKP_WITNESS_WTNS_FILE;
    record_.path = path_.c_str();
  }
  WtnsFile(const WtnsFile&) = delete;
  WtnsFile& operator=(const WtnsFile&) = delete;
  operator const zkp_witness_t&() const { return record_; }  // NOLINT: the point is the conversion
  const zkp_witness_t* get() const { return &record_; }

 private:
  std::string path_;
  zkp_witness_t record_;
};

// Returned as a prvalue: no copy, so the record keeps pointing at its own path.
inline WtnsFile wtns_file(std::string path) { return WtnsFile(std::move(path)); }

inline zkp_witness_t assignment(const std::vector<std::uint8_t>& bytes) {
  auto w = make<zkp_witness_t>();
  w.kind = ZKP_WITNESS_ASSIGNMENT;
  w.data = bytes.data();
  w.size = bytes.size();
  return w;
}

// synthesize → prove_start(gpu_index, worker) → prove_finish; the status of the first failure.
inline zkp_status_t prove(zkp_prover_t* p, zkp_key_t* key, const zkp_witness_t& w, const std::uint8_t* randomness,
                          int32_t gpu_index, uint32_t worker, Output& o, zkp_error_t& err) {
  return prover_calls::prove(p, key, w, randomness, gpu_index, worker, o.out, err);
}

using prover_calls::read_bytes;

// The assignment of a snarkjs .wtns (v2): its last n_vars × 32 bytes.
inline std::vector<std::uint8_t> wtns_assignment(const std::filesystem::path& wtns, std::uint32_t n_vars) {
  const auto b = read_bytes(wtns);
  const std::size_t n = std::size_t{n_vars} * ZKP_SCALAR_SIZE;
  if (b.size() < n) throw std::runtime_error(wtns.string() + " is shorter than its assignment");
  return {b.end() - static_cast<std::ptrdiff_t>(n), b.end()};
}

}  // namespace zkp::test
