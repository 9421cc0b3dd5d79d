#include "cuda_prover.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <limits>
#include <thread>

#include "core/backend/curve_key.hpp"
#include "core/backend/errors.hpp"
#include "core/util/file_identity.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda_key.hpp"
#include "staging.hpp"

namespace zkp::cuda::prover {
namespace {

using backend::translate_format_errors;

const KeyRef& ref_of(const zkp_key_t& key) {
  const auto* h = dynamic_cast<const KeyRef*>(&key);
  if (h == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the key was not loaded by the cuda prover");
  return *h;
}

struct DeviceProps {
  std::string name;
  std::uint64_t memory = 0;
};

DeviceProps props_of(int ordinal) {
  cudaDeviceProp p{};
  ZKP_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  return {p.name, p.totalGlobalMem};
}

}  // namespace

CudaProver::CudaProver(const sdk::HostServices& host, const sdk::ProverFacts& facts, sdk::Options& options)
    : host_(host), options_(parse_options(options)) {
  options_.workers = facts.workers_per_device;
  cudaError_t error = cudaSuccess;
  const int available = cuda::device_count(&error);
  if (available == 0) {
    no_device_reason_ = error != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(error)
                                             : "no CUDA device: cudaGetDeviceCount found 0 devices";
  }
  std::vector<int> ordinals = options_.devices;
  if (options_.all_devices) {
    for (int d = 0; d < available; ++d) ordinals.push_back(d);
  }
  for (int ordinal : ordinals) {
    if (ordinal >= available) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "prover 'cuda': option 'devices' names CUDA device " +
                                                     std::to_string(ordinal) + ", but the runtime reports " +
                                                     std::to_string(available) + " device(s)" +
                                                     (no_device_reason_.empty() ? "" : " (" + no_device_reason_ + ")"));
    }
  }
  pool_ = std::make_unique<ThreadPool>(options_.host_threads);
  staging_ = std::make_unique<ThreadPool>(std::min(kStagingThreads, ThreadPool::hardware_threads()));
  // Sharing pool_ would make the host G2 MSM and the host H step take turns: 3-16% slower
  // proofs with g2=host h=host on one H200 (docs/PERF.md, session 5). Its own pool, started
  // once, keeps them overlapped and still starts no thread per proof.
  if (options_.g2 == Placement::host) g2_pool_ = std::make_unique<ThreadPool>(options_.host_threads);
  ctx_ = std::make_unique<Context>(Context{host_, *pool_, options_, {}, staging_.get(), g2_pool_.get()});
  for (std::size_t i = 0; i < ordinals.size(); ++i) {
    const DeviceProps p = props_of(ordinals[i]);
    devices_.push_back(std::make_unique<DeviceSlot>(static_cast<std::uint32_t>(i), ordinals[i], p.name, p.memory,
                                                    options_.workers));
    ctx_->devices.push_back(devices_.back().get());
  }
  host_.info("cuda: " + std::to_string(devices_.size()) + " device(s), " + std::to_string(options_.workers) +
             " worker(s) each, g2=" + to_string(options_.g2) + ", h=" + to_string(options_.h) +
             (devices_.empty() ? " (" + no_device_reason_ + ")" : ""));
}

CudaProver::~CudaProver() = default;

void CudaProver::device_info(uint32_t gpu_index, zkp_device_info_t& out) const {
  const DeviceSlot& d = *devices_[gpu_index];
  sdk::copy_name(out.name, d.name());
  out.memory_bytes = d.memory_bytes();
  out.memory_free_bytes = 0;
  try {
    DeviceGuard guard(d.ordinal());
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) out.memory_free_bytes = free;
    cudaGetLastError();
  } catch (const CudaError&) {  // a lost device: free memory unknown
  }
  out.partitions_started = d.started.load();
  out.partitions_proved = d.proved.load();
  out.busy_ns = d.busy_ns.load();
}

std::shared_ptr<KeyState> CudaProver::read_key(const zkp_key_source_t& source) {
  return translate_format_errors([&]() -> std::shared_ptr<KeyState> {
    const auto n = static_cast<std::uint32_t>(devices_.size());
    if (sdk::key_format(source) == ZKP_KEY_FORMAT_BELLPERSON) {
      // host_bases=drop: the queries the devices hold are streamed from the file into them
      // at make_resident (streamed_bases.hpp), never decoded whole into host memory; b_g2 is
      // decoded here when the G2 MSM runs on the host.
      using Q = bellperson::Key::HostQueries;
      const Q host = options_.host_bases == HostBases::keep ? Q::all : options_.g2 == Placement::host ? Q::b2_only : Q::none;
      auto key = backend::load_bellperson_key(source, options_.key, *pool_, host);
      // synthesis=device with a circuit (key option r1cs): A·w, B·w, C·w on the device.
      if (options_.synthesis == Placement::device && options_.h == Placement::device) key->leave_abc_to_the_device();
      return std::make_shared<CudaKey<backend::BellpersonKey>>(std::move(key), n);
    }
    if (sdk::key_format(source) != ZKP_KEY_FORMAT_ZKEY) {
      throw sdk::Error(ZKP_ERR_UNSUPPORTED, "unknown key format " + std::to_string(sdk::key_format(source)));
    }
    const bool ab_on_device = options_.synthesis == Placement::device && options_.h == Placement::device;
    return backend::load_key(source, options_.key, *pool_, [n, ab_on_device](auto curve_key) -> std::shared_ptr<KeyState> {
      using BK = typename decltype(curve_key)::element_type;
      if (ab_on_device) curve_key->leave_ab_to_the_device();
      return std::make_shared<CudaKey<BK>>(std::move(curve_key), n);
    });
  });
}

std::shared_ptr<KeyState> CudaProver::cached_or_read(const zkp_key_source_t& source) {
  // The same file read as another format is another key (or an error), never a cache hit.
  // The same file, unchanged, maps to the same resident key (core/util/file_identity.hpp).
  const std::optional<FileIdentity> file = source.path != nullptr ? file_identity(source.path) : std::nullopt;
  const std::string id = file ? file->key() + "#format=" + std::to_string(sdk::key_format(source)) : std::string();
  if (!id.empty()) {
    std::lock_guard lk(cache_mutex_);
    if (auto it = cache_.find(id); it != cache_.end()) {
      if (auto alive = it->second.lock()) return alive;
    }
  }
  std::shared_ptr<KeyState> key = read_key(source);  // outside the lock: parsing takes seconds
  if (!id.empty()) {
    std::lock_guard lk(cache_mutex_);
    std::erase_if(cache_, [](const auto& kv) { return kv.second.expired(); });
    auto& slot = cache_[id];
    if (auto alive = slot.lock()) return alive;  // another thread loaded it meanwhile: share theirs
    slot = key;
  }
  return key;
}

void CudaProver::load_on(KeyState& key, DeviceSlot& device) {
  std::size_t lanes = 0;
  for (const auto& d : devices_) lanes += d->lanes().size();
  const std::size_t cap = options_.pinned_pool_bytes == 0 ? 0 : static_cast<std::size_t>(options_.pinned_pool_bytes / lanes);
  // The workers' pinned staging is host work (pages touched and locked, cuda/util/pinned_memory:
  // ~0.2 s per lane at a 2^24 key): each lane on a thread of its own, beside the upload, which
  // waits on the pool and the copies.
  const LaneNeeds needs = key.lane_needs(options_);
  const auto& device_lanes = device.lanes();
  std::vector<std::exception_ptr> pinning_failed(device_lanes.size());
  std::vector<double> pinning_ms(device_lanes.size());
  std::vector<std::thread> pinning;
  struct Join {
    std::vector<std::thread>& threads;
    ~Join() {
      for (auto& t : threads) t.join();
    }
  };
  std::string placed;
  const auto t0 = std::chrono::steady_clock::now();
  {
    Join join{pinning};
    for (std::size_t i = 0; i < device_lanes.size(); ++i) {
      pinning.emplace_back([&, i] {
        try {
          const auto start = std::chrono::steady_clock::now();
          device_lanes[i]->reserve_pinned(needs, cap);
          pinning_ms[i] = detail::ms_since(start);
        } catch (...) {
          pinning_failed[i] = std::current_exception();
        }
      });
    }
    // A streamed bellperson key reads and checks its queries here: a bad point or a file that
    // shrank is the caller's input, reported as read_key reports it.
    placed = translate_format_errors([&] { return key.make_resident(device, options_, *pool_); });
  }
  for (const auto& e : pinning_failed) {
    if (e) std::rethrow_exception(e);
  }
  const double both_ms = detail::ms_since(t0);
  const double pinned_ms = pinning_ms.empty() ? 0 : *std::max_element(pinning_ms.begin(), pinning_ms.end());
  const auto t1 = std::chrono::steady_clock::now();
  for (const auto& lane : device.lanes()) lane->reserve(needs, cap);
  if (!placed.empty()) {
    const auto ms = [](double v) { return std::to_string(static_cast<long long>(v)); };
    host_.info("cuda: key " + key.name() + " on " + placed + "; workers' pinned staging beside it (" + ms(pinned_ms) +
               " ms for " + std::to_string(device_lanes.size()) + " lane(s) at once; " + ms(both_ms) +
               " ms with the key's placement), then their device buffers " + ms(detail::ms_since(t1)) + " ms");
  }
}

std::unique_ptr<zkp_key_t> CudaProver::key_load(const zkp_key_source_t& source, int32_t gpu_index) {
  if (devices_.empty()) {
    throw sdk::Error(ZKP_ERR_DEVICE, "prover 'cuda' has no device to load the key on (" + no_device_reason_ + ")");
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::shared_ptr<KeyState> key = cached_or_read(source);
  const double read_ms = detail::ms_since(t0);  // the file read and decoded (0 for a cached key)
  std::vector<DeviceSlot*> targets;
  if (gpu_index < 0) {
    for (const auto& d : devices_) targets.push_back(d.get());
  } else {
    targets.push_back(devices_[static_cast<std::size_t>(gpu_index)].get());
  }
  // A cached key whose host bases were dropped (host_bases=drop) cannot go on a new device:
  // this load reads the file again, into a key of its own.
  double read_ms_again = 0;
  const bool placed = std::all_of(targets.begin(), targets.end(), [&](const DeviceSlot* d) { return key->resident_on(d->index()); });
  if (!placed && !key->can_place()) {
    host_.info("cuda: key " + key->name() + " is loaded elsewhere without its host bases (host_bases=drop): reading it again");
    key = read_key(source);
    read_ms_again = detail::ms_since(t0) - read_ms;
  }
  // One thread per device: uploads and precomputation of different devices overlap.
  std::vector<std::exception_ptr> errors(targets.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < targets.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        load_on(*key, *targets[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  try {
    load_on(*key, *targets[0]);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  if (options_.host_bases == HostBases::drop) key->drop_host_bases(options_);
  zkp_key_info_t info = sdk::make_struct<zkp_key_info_t>();
  key->host_key().info(info);
  host_.info("cuda: loaded key " + key->name() + " on " +
             (gpu_index < 0 ? std::to_string(targets.size()) + " device(s)" : targets[0]->label()) + ": " +
             std::to_string(info.n_vars) + " wires, domain " + std::to_string(info.domain_size) + ", " +
             std::to_string(static_cast<long long>(detail::ms_since(t0))) + " ms (read and decoded in " +
             std::to_string(static_cast<long long>(read_ms + read_ms_again)) + " ms)");
  return std::make_unique<KeyRef>(std::move(key));
}

void CudaProver::key_info(const zkp_key_t& key, zkp_key_info_t& out) const {
  const KeyState& state = *ref_of(key).state;
  state.host_key().info(out);
  if (sdk::covers(out.header, offsetof(zkp_key_info_t, device_bytes) + sizeof out.device_bytes)) {
    out.device_bytes = state.device_bytes(options_);
  }
}

std::unique_ptr<zkp_synthesis_t> CudaProver::synthesize(const zkp_key_t& key, const zkp_witness_t& witness) {
  return translate_format_errors([&] { return ref_of(key).state->host_key().synthesize(witness, *pool_); });
}

void CudaProver::synthesize_into(const zkp_key_t& key, const zkp_witness_t& witness, std::span<uint8_t> buffer,
                                 zkp_synthesized_t& out) {
  translate_format_errors([&] { ref_of(key).state->host_key().synthesize_into(witness, buffer, out, *pool_); });
}

DeviceSlot& CudaProver::pick_device(const KeyState& key, int32_t gpu_index) const {
  if (devices_.empty()) throw sdk::Error(ZKP_ERR_DEVICE, "prover 'cuda' has no device (" + no_device_reason_ + ")");
  if (gpu_index >= 0) return *devices_[static_cast<std::size_t>(gpu_index)];
  // Least busy: fewest proofs queued or running, then least device time so far, then lowest index.
  DeviceSlot* best = nullptr;
  std::string lost;
  for (const auto& d : devices_) {
    if (!key.resident_on(d->index())) continue;
    if (std::string why; d->lost(&why)) {
      lost += (lost.empty() ? "" : "; ") + d->label() + ": " + why;
      continue;
    }
    if (best == nullptr || d->in_flight.load() < best->in_flight.load() ||
        (d->in_flight.load() == best->in_flight.load() && d->busy_ns.load() < best->busy_ns.load())) {
      best = d.get();
    }
  }
  if (best == nullptr && !lost.empty()) {
    throw sdk::Error(ZKP_ERR_DEVICE_LOST, "every device key " + key.name() + " is loaded on is unusable after a fault (" +
                                         lost + ")");
  }
  if (best == nullptr) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "key " + key.name() + " is not loaded on any usable device");
  }
  return *best;
}

std::unique_ptr<zkp_prove_op_t> CudaProver::prove_start(const zkp_key_t& key, const zkp_prove_input_t& input,
                                                        int32_t gpu_index, uint32_t worker) {
  return translate_format_errors([&]() -> std::unique_ptr<zkp_prove_op_t> {
    const std::shared_ptr<KeyState>& state = ref_of(key).state;
    DeviceSlot& device = pick_device(*state, gpu_index);
    std::string why;
    if (device.lost(&why)) {
      throw sdk::Error(ZKP_ERR_DEVICE_LOST, device.label() + " is unusable after an earlier fault: " + why);
    }
    return state->start(device, device.lane(worker), input, *ctx_);
  });
}

void CudaProver::finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out, DeviceStageTimes* times) {
  auto* base = dynamic_cast<OpBase*>(op.get());
  if (base == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the op was not started by the cuda prover");
  translate_format_errors([&] { base->finish(out, times); });
  base->device().proved.fetch_add(1);
  base->device().busy_ns.fetch_add(out.gpu_duration_ns);
}

void CudaProver::prove_wait(zkp_prove_op_t& op) {
  auto* base = dynamic_cast<OpBase*>(&op);
  if (base == nullptr) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the op was not started by the cuda prover");
  translate_format_errors([&] { base->wait_input_read(); });
}

void CudaProver::prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) {
  finish(std::move(op), out, nullptr);
}

bool CudaProver::verify(const zkp_key_t& key, std::span<const uint8_t> proof,
                        std::span<const uint8_t> public_inputs) const {
  return translate_format_errors([&] { return ref_of(key).state->host_key().verify(proof, public_inputs); });
}

}  // namespace zkp::cuda::prover
