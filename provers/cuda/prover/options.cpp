#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <utility>

#include "core/backend/key_options.hpp"
#include "cuda/msm/plan.hpp"

namespace zkp::cuda::prover {
namespace {

constexpr std::uint64_t kMaxHostThreads = 4096;
// The largest CUDA ordinal accepted in a list (a typo guard; real hosts have ≤ 16).
constexpr int kMaxOrdinal = 1024;
constexpr const char* kDevicesExpected = "'all' or a comma-separated list of distinct device ordinals";

std::optional<unsigned> parse_unsigned(const std::string& text) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// devices = all | 0,2: the CUDA ordinals in gpu_index order.
sdk::OptionEntry<ProverOptions> devices_option() {
  auto show = [](const ProverOptions& o) {
    if (o.all_devices) return std::string("all");
    std::string out;
    for (int d : o.devices) {
      if (!out.empty()) out += ',';
      out += std::to_string(d);
    }
    return out;
  };
  auto set = [](ProverOptions& o, const std::string& text) { return parse_devices(text, o); };
  return {"devices", "CUDA devices to use, in gpu_index order", kDevicesExpected, show, set};
}

// msm_precompute = all | F >= 1: precomputed base copies per G1 section.
sdk::OptionEntry<ProverOptions> precompute_option() {
  auto show = [](const ProverOptions& o) {
    return o.msm_precompute == 0 ? std::string("all") : std::to_string(o.msm_precompute);
  };
  auto set = [](ProverOptions& o, const std::string& text) {
    if (text == "all") {
      o.msm_precompute = 0;
      return true;
    }
    const auto f = parse_unsigned(text);
    if (!f || *f == 0) return false;
    o.msm_precompute = *f;
    return true;
  };
  return {"msm_precompute",
          "precomputed base copies per G1 section: all (one bucket group, fastest; W = 12..22 copies of the "
          "bases on the device) or F (1 = bases only)",
          "'all' or an integer >= 1", show, set};
}

// msm_window_bits = 0 (the cost model) | 2..kMaxWindowBits.
sdk::OptionEntry<ProverOptions> window_bits_option() {
  const std::string expected = "0 (auto) or in [2, " + std::to_string(msm::kMaxWindowBits) + "]";
  auto show = [](const ProverOptions& o) { return std::to_string(o.msm_window_bits); };
  auto set = [](ProverOptions& o, const std::string& text) {
    const auto c = parse_unsigned(text);
    if (!c || *c == 1 || *c > msm::kMaxWindowBits) return false;
    o.msm_window_bits = *c;
    return true;
  };
  return {"msm_window_bits", "device MSM window bits c; 0 = the cost model's choice", expected, show, set};
}

// A function, not a namespace-scope vector: the plugin's factory table builds its help from
// option_table() during the library's static initialization, before this file's statics.
std::vector<std::pair<std::string, Placement>> placements() { return {{"device", Placement::device}, {"host", Placement::host}}; }

}  // namespace

const char* to_string(Placement p) { return p == Placement::device ? "device" : "host"; }
const char* to_string(MsmOrder o) { return o == MsmOrder::concurrent ? "concurrent" : "sequential"; }
const char* to_string(MsmScratch s) {
  return s == MsmScratch::automatic ? "auto" : s == MsmScratch::per_section ? "per_section" : "shared";
}

const char* to_string(HostBases b) { return b == HostBases::keep ? "keep" : "drop"; }

bool parse_devices(const std::string& value, ProverOptions& out) {
  std::vector<int> devices;
  const bool all = value == "all";
  std::size_t pos = 0;
  while (!all && pos <= value.size()) {
    const std::size_t comma = std::min(value.find(',', pos), value.size());
    int ordinal = -1;
    const char* b = value.data() + pos;
    const char* e = value.data() + comma;
    const auto [end, ec] = std::from_chars(b, e, ordinal);
    if (b == e || ec != std::errc() || end != e || ordinal < 0 || ordinal > kMaxOrdinal ||
        std::find(devices.begin(), devices.end(), ordinal) != devices.end()) {
      return false;
    }
    devices.push_back(ordinal);
    pos = comma + 1;
  }
  out.devices = std::move(devices);
  out.all_devices = all;
  return true;
}

const sdk::OptionTable<ProverOptions>& option_table() {
  using O = ProverOptions;
  static const sdk::OptionTable<O> table{
      devices_option(),
      sdk::integer("pinned_pool_bytes", &O::pinned_pool_bytes, 0, UINT64_MAX,
                   "pinned host staging for all lanes together, allocated at key_load; 0 = exactly what the "
                   "largest key loaded needs per lane"),
      sdk::integer("device_memory_bytes", &O::device_memory_bytes, 0, UINT64_MAX,
                   "device memory the prover may use on each device (resident keys and worker scratch, by its "
                   "estimate); 0 = all the device has. A key that does not fit fails key_load with "
                   "ZKP_ERR_OUT_OF_MEMORY"),
      sdk::flag("verify", &O::verify,
                "verify every proof with the pairing before returning it; a proof that fails means the witness "
                "does not satisfy the circuit (ZKP_ERR_UNSATISFIED_WITNESS)"),
      precompute_option(),
      window_bits_option(),
      sdk::choice("msm_order", &O::msm_order, {{"concurrent", MsmOrder::concurrent}, {"sequential", MsmOrder::sequential}},
                  "how a proof's section MSMs (A, B1, B2, C) share the device: all queued at once, or each "
                  "collected before the next"),
      sdk::choice("msm_scratch", &O::msm_scratch,
                  {{"auto", MsmScratch::automatic}, {"per_section", MsmScratch::per_section}, {"shared", MsmScratch::shared}},
                  "the section MSMs' scratch on each device (about 16 bytes per base and window, more than the bases): "
                  "per_section (the sections run concurrently), shared (one for all: they run one after another, "
                  "and a key needs the largest section's scratch instead of the sum), or auto: per_section when "
                  "the key fits that way, else shared"),
      sdk::choice("host_bases", &O::host_bases, {{"keep", HostBases::keep}, {"drop", HostBases::drop}},
                  "a bellperson key's queries in host memory: drop streams them from the file into the devices "
                  "at key_load, never holding a copy (44 GiB of host memory at a 2^27 PoRep partition; b_g2 is "
                  "decoded to the host with g2=host), and a later key_load of the same file on another device "
                  "reads the file again; keep decodes them into host memory, uploads that copy and holds it. "
                  "zkey keys keep theirs"),
      sdk::choice("g2", &O::g2, placements(),
                  "where the G2 MSM (B2) runs: the device (resident G2 bases) or the host's cores, overlapped "
                  "with the device's G1 work"),
      sdk::choice("h", &O::h, placements(),
                  "where the H step (3 odd-coset transforms) runs: the device (cuda::HStep, per worker) or the "
                  "host's cores, overlapped with the device MSMs"),
      sdk::choice("synthesis", &O::synthesis, placements(),
                  "where a partition's A·w and B·w (and C·w, the r1cs check) are evaluated from a witness: the host's "
                  "cores, before the GPU queue (a synthesis holds the witness and the domain vectors), or the device, "
                  "from the witness the MSMs upload anyway (a synthesis is the witness alone: the host's work and memory "
                  "per proof are O(witness)); device needs h=device and applies to zkeys and to bellperson keys given "
                  "their circuit (r1cs); with r1cs the rows are checked there, naming a broken constraint as the host "
                  "check does; callers' syntheses carry their own a, b, c"),
      sdk::integer("threads", &O::host_threads, 0, kMaxHostThreads,
                   "the size of the prover's pool of host threads, started once: synthesis, the checks and the "
                   "host H step run on it, and with g2=host the host G2 MSM on a second pool of this size, so "
                   "that it overlaps H (the cpu prover's option of the same name); 0 = every hardware thread"),
      sdk::integer("host_threads", &O::host_threads, 0, kMaxHostThreads, "the old name of threads"),
      backend::key_check_option(&O::key),
      backend::params_check_option(&O::key),
      backend::r1cs_option(&O::key),
  };
  return table;
}

ProverOptions parse_options(sdk::Options& options) { return option_table().read(options); }

}  // namespace zkp::cuda::prover
