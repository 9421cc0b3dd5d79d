#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <utility>

#include "cuda/msm/plan.hpp"

namespace zkp::cuda::prover {
namespace {

constexpr const char* kOwner = "prover 'cuda'";
// Lanes per device: each holds a host thread, a stream and scratch for one proof of the largest
// key; beyond a handful the device is saturated (two proofs already overlap host and device).
constexpr std::uint64_t kMaxWorkers = 64;
constexpr std::uint64_t kMaxHostThreads = 4096;
// The largest CUDA ordinal accepted in a list (a typo guard; real hosts have ≤ 16).
constexpr int kMaxOrdinal = 1024;

sdk::Error bad(const std::string& key, const std::string& value, const std::string& want) {
  return sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                    std::string(kOwner) + ": option '" + key + "' = '" + value + "' is not " + want);
}

// An option with two spellings, each naming a value of E; the fallback is read back as its name.
template <class E>
E parse_choice(sdk::Options& options, const std::string& key, E fallback, std::pair<const char*, E> first,
               std::pair<const char*, E> second) {
  const std::string v = options.get_string(key, fallback == first.second ? first.first : second.first);
  if (v == first.first) return first.second;
  if (v == second.first) return second.second;
  throw bad(key, v, std::string(first.first) + " or " + second.first);
}

Placement parse_placement(sdk::Options& options, const std::string& key, Placement fallback) {
  return parse_choice(options, key, fallback, {"device", Placement::device}, {"host", Placement::host});
}

}  // namespace

const char* to_string(Placement p) { return p == Placement::device ? "device" : "host"; }
const char* to_string(MsmOrder o) { return o == MsmOrder::concurrent ? "concurrent" : "sequential"; }

void parse_devices(const std::string& value, ProverOptions& out) {
  out.devices.clear();
  out.all_devices = value == "all";
  if (out.all_devices) return;
  const std::string want = "'all' or a comma-separated list of distinct device ordinals";
  std::size_t pos = 0;
  while (pos <= value.size()) {
    const std::size_t comma = std::min(value.find(',', pos), value.size());
    int ordinal = -1;
    const char* b = value.data() + pos;
    const char* e = value.data() + comma;
    const auto [end, ec] = std::from_chars(b, e, ordinal);
    if (b == e || ec != std::errc() || end != e || ordinal < 0 || ordinal > kMaxOrdinal ||
        std::find(out.devices.begin(), out.devices.end(), ordinal) != out.devices.end()) {
      throw bad("devices", value, want);
    }
    out.devices.push_back(ordinal);
    pos = comma + 1;
  }
}

ProverOptions parse_options(sdk::Options& options) {
  ProverOptions o;
  parse_devices(options.get_string("devices", "all"), o);
  o.workers = static_cast<unsigned>(options.get_u64("workers", o.workers, 1, kMaxWorkers));
  o.pinned_pool_bytes = options.get_u64("pinned_pool_bytes", 0);
  o.device_memory_bytes = options.get_u64("device_memory_bytes", 0);
  o.verify = options.get_bool("verify", true);
  const std::string pre = options.get_string("msm_precompute", "all");
  if (pre == "all") {
    o.msm_precompute = 0;
  } else {
    unsigned f = 0;
    const auto [end, ec] = std::from_chars(pre.data(), pre.data() + pre.size(), f);
    if (ec != std::errc() || end != pre.data() + pre.size() || f == 0) throw bad("msm_precompute", pre, "'all' or an integer >= 1");
    o.msm_precompute = f;
  }
  o.msm_window_bits = static_cast<unsigned>(options.get_u64("msm_window_bits", 0, 0, msm::kMaxWindowBits));
  if (o.msm_window_bits == 1) throw bad("msm_window_bits", "1", "0 (auto) or in [2, " + std::to_string(msm::kMaxWindowBits) + "]");
  o.msm_order = parse_choice(options, "msm_order", o.msm_order, {"concurrent", MsmOrder::concurrent},
                             {"sequential", MsmOrder::sequential});
  o.g2 = parse_placement(options, "g2", o.g2);
  o.h = parse_placement(options, "h", o.h);
  o.host_threads = static_cast<unsigned>(options.get_u64("host_threads", 0, 0, kMaxHostThreads));
  backend::parse_key_check(options.get_string("key_check", "on_curve"), kOwner, o.key);
  o.key.r1cs_path = options.get_string("r1cs", "");
  return o;
}

}  // namespace zkp::cuda::prover
