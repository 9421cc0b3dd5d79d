// bench_bellperson: Filecoin-shape bellperson partitions on the cuda prover, one device — key
// generation, key load (decode + upload) time and the device memory it takes, then per scalar
// mix the per-partition proof time and its stage split (DeviceStageTimes).
//
//   bench_bellperson [--logs 25,26,27] [--mixes random,50,90] [--reps 2] [--precompute F]
//                    [--g2 device|host] [--scratch auto|per_section|shared] [--msm-order concurrent|sequential]
//                    [--workers W] [--sector K] [--params-dir DIR] [--host-bases keep|drop] [--csv FILE]
//
// --host-bases keep decodes the queries into host memory and uploads that copy (and keeps it);
// drop (the default) streams them from the file into the device (streamed_bases.hpp). Each
// key_load prints its stage split and the peak host RSS during the load.
//
// --sector K (with --workers W, default 1): after each mix's single proofs, K proofs of that
// partition from W threads at once, each on its own worker's lane, as a sector's partitions
// reach one device: the wall time of the K and its mean interval, where one lane's upload and H
// step run under another's MSMs. Each lane holds ~n·128 bytes of pinned staging.
//
// Keys and partitions are synthetic (tests/bellperson_prover/synthetic_params.hpp: PoRep's
// proportions scaled to 2^log, built in memory on every core), handed over as a bellperson
// caller does (Montgomery scalars, inputs and aux apart, the three densities). Their proofs do
// not verify, so verify=false; params_check=none (the points are ours). With --params-dir the
// parameter file is written there (a mapped file) and loaded by path, as an operator's is: at
// 2^27 (44 GiB) a copy in memory beside the decoded key would not leave room on a 128 GiB host.
#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda/prover/cuda_prover.hpp"
#include "synthetic_params.hpp"

namespace {

using namespace zkp;
using cuda::prover::CudaProver;
using cuda::prover::DeviceStageTimes;
using Clock = std::chrono::steady_clock;

struct Args {
  std::vector<unsigned> logs = {25, 26, 27};
  std::vector<test::ScalarMix> mixes = {test::ScalarMix::random, test::ScalarMix::zeros_ones_50,
                                        test::ScalarMix::zeros_ones_90};
  unsigned reps = 2;
  unsigned workers = 1, sector = 0;
  std::string precompute = "1", g2, scratch, msm_order, params_dir, host_bases, csv;
};

// A field of /proc/self/status in bytes (VmRSS: the resident set now; VmHWM: its peak since
// the start or the last reset_peak_resident()), 0 if unreadable.
std::size_t status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return static_cast<std::size_t>(std::stoull(line.substr(field.size() + 1))) * 1024;
  }
  return 0;
}
std::size_t resident_bytes() { return status_bytes("VmRSS"); }
// Starts VmHWM again from the present RSS (Linux: "5" to clear_refs), so a stage's peak is its own.
void reset_peak_resident() { std::ofstream("/proc/self/clear_refs") << "5"; }

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

template <class T>
T make() {
  T v{};
  v.header = ZKP_HEADER_INIT(T);
  return v;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing value for " + k);
    const std::string v = argv[++i];
    if (k == "--logs") {
      a.logs.clear();
      for (const auto& x : split(v)) a.logs.push_back(static_cast<unsigned>(std::stoul(x)));
    } else if (k == "--mixes") {
      a.mixes.clear();
      for (const auto& x : split(v)) {
        a.mixes.push_back(x == "random" ? test::ScalarMix::random
                          : x == "50"   ? test::ScalarMix::zeros_ones_50
                          : x == "90"   ? test::ScalarMix::zeros_ones_90
                                        : throw std::invalid_argument("--mixes: random, 50 or 90"));
      }
    } else if (k == "--reps") {
      a.reps = static_cast<unsigned>(std::stoul(v));
    } else if (k == "--precompute") {
      a.precompute = v;
    } else if (k == "--g2") {
      a.g2 = v;
    } else if (k == "--scratch") {
      a.scratch = v;
    } else if (k == "--workers") {
      a.workers = static_cast<unsigned>(std::stoul(v));
      if (a.workers == 0) throw std::invalid_argument("--workers: at least 1");
    } else if (k == "--sector") {
      a.sector = static_cast<unsigned>(std::stoul(v));
    } else if (k == "--msm-order") {  // sequential: each section MSM has the chip to itself
      a.msm_order = v;
    } else if (k == "--host-bases") {
      a.host_bases = v;
    } else if (k == "--params-dir") {
      a.params_dir = v;
    } else if (k == "--csv") {
      a.csv = v;
    } else {
      throw std::invalid_argument("unknown option " + k);
    }
  }
  return a;
}

std::unique_ptr<CudaProver> make_prover(const sdk::HostServices& host, const Args& a) {
  std::vector<zkp_option_t> opts = {{"verify", "false"}, {"params_check", "none"}, {"msm_precompute", a.precompute.c_str()}};
  if (!a.g2.empty()) opts.push_back({"g2", a.g2.c_str()});
  if (!a.scratch.empty()) opts.push_back({"msm_scratch", a.scratch.c_str()});
  if (!a.msm_order.empty()) opts.push_back({"msm_order", a.msm_order.c_str()});
  if (!a.host_bases.empty()) opts.push_back({"host_bases", a.host_bases.c_str()});
  sdk::Options options("prover 'cuda'", opts.data(), opts.size());
  sdk::ProverFacts facts;
  facts.workers_per_device = a.workers;  // a lane each: its pinned staging is ~n·128 bytes at PoRep's shape
  auto p = std::make_unique<CudaProver>(host, facts, options);
  options.finish();
  return p;
}

// The parameter file written straight into a mapped file at `path`; returns its size.
std::size_t write_params_file(const std::string& path, const test::SyntheticShape& shape, const test::SyntheticDensities& dens,
                              ThreadPool& pool) {
  const std::size_t size = test::SyntheticLayout(shape, dens).size;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(size)) != 0) throw std::runtime_error("cannot create " + path);
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw std::runtime_error("cannot map " + path);
  test::write_synthetic_params(shape, dens, std::span<std::byte>(static_cast<std::byte*>(map), size), pool);
  ::munmap(map, size);
  return size;
}

std::size_t device_free() {
  std::size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  return free;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void run_size(const sdk::HostServices& host, const Args& a, unsigned log_m, ThreadPool& pool, std::FILE* csv) {
  const test::SyntheticShape shape = test::SyntheticShape::porep(log_m);
  auto t0 = Clock::now();
  const test::SyntheticDensities dens(shape, pool);
  std::vector<std::byte> params;
  std::string params_path;
  std::size_t params_size = 0;
  if (a.params_dir.empty()) {
    params = test::synthetic_params(shape, dens, pool);
    params_size = params.size();
  } else {
    params_path = a.params_dir + "/porep_2^" + std::to_string(log_m) + ".params";
    params_size = write_params_file(params_path, shape, dens, pool);
  }
  const double gen_s = seconds_since(t0);
  std::printf("2^%u: %llu rows, %llu inputs, %llu aux; a_aux %llu, b %llu + %llu; params %.2f GiB made in %.1f s\n", log_m,
              static_cast<unsigned long long>(shape.rows), static_cast<unsigned long long>(shape.num_inputs),
              static_cast<unsigned long long>(shape.num_aux), static_cast<unsigned long long>(dens.a_aux_popcount),
              static_cast<unsigned long long>(dens.b_input_popcount), static_cast<unsigned long long>(dens.b_aux_popcount),
              static_cast<double>(params_size) / (1u << 30), gen_s);
  std::fflush(stdout);

  auto prover = make_prover(host, a);
  const std::size_t free_before = device_free();
  auto src = make<zkp_key_source_t>();
  if (params_path.empty()) {
    src.data = params.data();
    src.size = params.size();
  } else {
    src.path = params_path.c_str();
  }
  src.format = ZKP_KEY_FORMAT_BELLPERSON;
  const std::size_t rss_before = resident_bytes();
  reset_peak_resident();
  t0 = Clock::now();
  auto key = prover->key_load(src, 0);
  const double load_s = seconds_since(t0);
  const std::size_t load_peak = status_bytes("VmHWM");
  const double device_gib = static_cast<double>(free_before - device_free()) / (1u << 30);
  // A bellperson key decodes its queries at key_load and keeps no view of the file.
  params = {};
  if (!params_path.empty()) ::unlink(params_path.c_str());
  std::printf("  key_load (decode, upload, precompute=%s, host_bases=%s): %.1f s; device memory %.2f GiB; host RSS "
              "before %.2f GiB, peak during the load %.2f GiB, after %.2f GiB\n",
              a.precompute.c_str(), a.host_bases.empty() ? "drop" : a.host_bases.c_str(), load_s, device_gib,
              static_cast<double>(rss_before) / (1u << 30), static_cast<double>(load_peak) / (1u << 30),
              static_cast<double>(resident_bytes()) / (1u << 30));
  std::fflush(stdout);

  std::vector<std::uint8_t> proof(ZKP_PROOF_SIZE_BLS12_381), publics((shape.num_inputs - 1) * ZKP_SCALAR_SIZE);
  std::unique_ptr<test::SyntheticPartition> part;
  for (const test::ScalarMix mix : a.mixes) {
    part.reset();  // the last mix's buffers go before this one's are made: ~32 bytes × 3.5 n each
    t0 = Clock::now();
    part = std::make_unique<test::SyntheticPartition>(shape, mix, pool);
    std::printf("  %-8s partition made in %.1f s\n", test::to_string(mix), seconds_since(t0));
    auto ext = make<zkp_synthesized_t>();
    const auto bytes = [](const std::vector<bls12_381::Fr>& v) { return reinterpret_cast<const std::uint8_t*>(v.data()); };
    ext.flags = ZKP_SYNTHESIZED_MONTGOMERY;
    ext.a = bytes(part->a);
    ext.b = bytes(part->b);
    ext.c = bytes(part->c);
    ext.abc_length = shape.rows;
    ext.assignment = bytes(part->inputs);
    ext.assignment_length = shape.num_inputs;
    ext.aux_assignment = bytes(part->aux);
    ext.aux_assignment_length = shape.num_aux;
    ext.a_aux_density = dens.a_aux.data();
    ext.a_aux_bit_len = shape.num_aux;
    ext.b_input_density = dens.b_input.data();
    ext.b_input_bit_len = shape.num_inputs;
    ext.b_aux_density = dens.b_aux.data();
    ext.b_aux_bit_len = shape.num_aux;
    std::vector<double> wall, start, span, up, ma, mb1, mb2, ml, mh, h, lane;
    DeviceStageTimes t;
    for (unsigned r = 0; r < a.reps; ++r) {
      auto in = make<zkp_prove_input_t>();
      in.external = &ext;
      auto out = make<zkp_prove_output_t>();
      out.proof = proof.data();
      out.proof_capacity = proof.size();
      out.public_inputs = publics.data();
      out.public_capacity = publics.size();
      const auto p0 = Clock::now();
      auto op = prover->prove_start(*key, in, 0, 0);
      start.push_back(seconds_since(p0) * 1e3);
      prover->finish(std::move(op), out, &t);
      wall.push_back(seconds_since(p0) * 1e3);
      span.push_back(t.span_ms);
      up.push_back(t.upload_ms);
      ma.push_back(t.msm_a_ms);
      mb1.push_back(t.msm_b1_ms);
      mb2.push_back(t.msm_b2_ms);
      ml.push_back(t.msm_c_ms);
      mh.push_back(t.msm_h_ms);
      h.push_back(t.h_ms);
      lane.push_back(t.lane_ms);
    }
    const double device_msm = median(ma) + median(mb1) + median(ml) + median(mh) + (t.g2_on_host ? 0 : median(mb2));
    std::printf("  %-8s proof %.0f ms (prove_start %.0f: input checks); device span %.0f ms; MSMs a %.0f b1 %.0f b2 %.0f%s "
                "l %.0f h %.0f (device MSM sum %.0f); upload %.0f; H %.0f ms (%s)\n",
                test::to_string(mix), median(wall), median(start), median(span), median(ma), median(mb1), median(mb2),
                t.g2_on_host ? " (host)" : "", median(ml), median(mh), device_msm, median(up), median(h),
                t.h_on_host ? "host" : "device");
    std::fflush(stdout);
    if (a.sector > 0) {
      // K proofs from W threads, thread w on worker w's lane; each its own output buffers.
      std::atomic<unsigned> next{0};
      std::vector<std::thread> threads;
      std::vector<std::string> errors(a.workers);
      const auto s0 = Clock::now();
      for (unsigned w = 0; w < a.workers; ++w) {
        threads.emplace_back([&, w] {
          try {
            std::vector<std::uint8_t> pr(proof.size()), pub(publics.size());
            while (next.fetch_add(1) < a.sector) {
              auto in = make<zkp_prove_input_t>();
              in.external = &ext;
              auto out = make<zkp_prove_output_t>();
              out.proof = pr.data();
              out.proof_capacity = pr.size();
              out.public_inputs = pub.data();
              out.public_capacity = pub.size();
              auto op = prover->prove_start(*key, in, 0, w);
              prover->finish(std::move(op), out, nullptr);
            }
          } catch (const std::exception& e) {
            errors[w] = e.what();
          }
        });
      }
      for (auto& th : threads) th.join();
      const double sector_s = seconds_since(s0);
      for (const auto& e : errors) {
        if (!e.empty()) throw std::runtime_error("--sector: " + e);
      }
      std::printf("  %-8s sector of %u partitions on %u worker(s): %.2f s, %.0f ms per partition\n", test::to_string(mix),
                  a.sector, a.workers, sector_s, sector_s * 1e3 / a.sector);
      std::fflush(stdout);
    }
    if (csv != nullptr) {
      std::fprintf(csv, "%u,%s,%.1f,%.1f,%.2f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d\n", log_m,
                   test::to_string(mix), gen_s, load_s, device_gib, median(wall), median(start), median(span), median(ma),
                   median(mb1), median(mb2), median(ml), median(mh), device_msm, median(up), median(h), t.h_on_host ? 1 : 0);
      std::fflush(csv);
    }
  }
}

}  // namespace

// The prover's log on stdout, beside the figures: key_load's lines carry its stage times (the
// read and decode, each section's upload and precomputation).
void print_log(void*, zkp_log_level_t, const char* message) {
  std::printf("    [cuda] %s\n", message);
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    auto services = make<zkp_host_services_t>();
    services.log = print_log;
    const sdk::HostServices host(&services);
    ThreadPool pool(0);
    std::FILE* csv = a.csv.empty() ? nullptr : std::fopen(a.csv.c_str(), "w");
    if (csv != nullptr) {
      std::fprintf(csv, "log_m,mix,gen_s,load_s,device_gib,proof_ms,start_ms,span_ms,msm_a_ms,msm_b1_ms,msm_b2_ms,msm_l_ms,"
                        "msm_h_ms,device_msm_ms,upload_ms,h_ms,h_on_host\n");
    }
    for (const unsigned log_m : a.logs) run_size(host, a, log_m, pool, csv);
    if (csv != nullptr) std::fclose(csv);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_bellperson: %s\n", e.what());
    return 1;
  }
}
