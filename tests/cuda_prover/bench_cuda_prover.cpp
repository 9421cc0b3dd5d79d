// bench_cuda_prover: whole Groth16 proofs on the cuda prover, per curve and size, with the
// per-stage split (DeviceStageTimes: device times from CUDA events, host stages as wall time), and
// the multi-device throughput of gpu_index -1 against device 0 alone.
//
//   bench_cuda_prover [--curve bn254|bls12_381|both] [--min-log 16] [--max-log 22] [--reps 3]
//                     [--workers 2] [--precompute all|F] [--budget-s 240] [--csv FILE]
//                     [--throughput-log 18] [--throughput-proofs 24] [--g2 device|host] [--h device|host]
//                     [--msm-order concurrent|sequential] [--msm-scratch auto|per_section|shared]
//                     [--synthesis host|device]
//
// Keys and witnesses are synthetic (tests/groth16/synthetic_key.hpp: the squaring chain's shape,
// any power-of-two size, built in memory on this machine), so nothing large travels; their
// proofs do not verify, so verify=false. Sizes whose turn comes after --budget-s are skipped
// and say so.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cuda/prover/cuda_prover.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"
#include "synthetic_key.hpp"

namespace {

using namespace zkp;
using cuda::prover::CudaProver;
using cuda::prover::DeviceStageTimes;
using Clock = std::chrono::steady_clock;

struct Args {
  std::string curve = "both";
  unsigned min_log = 16, max_log = 22, reps = 3, workers = 2;
  std::string precompute = "all";
  std::string g2, h, msm_order, msm_scratch, synthesis;  // empty: the prover's defaults
  double budget_s = 240;
  std::string csv;
  unsigned throughput_log = 18, throughput_proofs = 24;
};

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

template <class T>
T make() {
  T v{};
  v.header = ZKP_HEADER_INIT(T);
  return v;
}

std::unique_ptr<CudaProver> make_prover(const sdk::HostServices& host, const Args& a) {
  std::vector<zkp_option_t> opts = {{"verify", "false"}, {"key_check", "none"}, {"msm_precompute", a.precompute.c_str()}};
  if (!a.g2.empty()) opts.push_back({"g2", a.g2.c_str()});
  if (!a.h.empty()) opts.push_back({"h", a.h.c_str()});
  if (!a.synthesis.empty()) opts.push_back({"synthesis", a.synthesis.c_str()});
  if (!a.msm_order.empty()) opts.push_back({"msm_order", a.msm_order.c_str()});
  if (!a.msm_scratch.empty()) opts.push_back({"msm_scratch", a.msm_scratch.c_str()});
  sdk::Options options("prover 'cuda'", opts.data(), opts.size());
  sdk::ProverFacts facts;
  facts.workers_per_device = a.workers;  // one lane per host worker
  auto p = std::make_unique<CudaProver>(host, facts, options);
  options.finish();
  return p;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Row {
  std::string curve;
  unsigned log_n = 0;
  double gen_s = 0, load_s = 0, synth_ms = 0;
  double wall_ms = 0;  // prove_start → prove_finish returned
  DeviceStageTimes t;        // medians per field
};

// One proof at gpu_index `gpu`, timed from prove_start to the end of prove_finish.
double prove_once(CudaProver& p, const zkp_key_t& key, const zkp_synthesis_t& syn, int32_t gpu, uint32_t worker,
                  std::vector<std::uint8_t>& proof, std::vector<std::uint8_t>& publics, DeviceStageTimes* times) {
  auto in = make<zkp_prove_input_t>();
  in.synthesis = &syn;
  auto out = make<zkp_prove_output_t>();
  out.proof = proof.data();
  out.proof_capacity = proof.size();
  out.public_inputs = publics.data();
  out.public_capacity = publics.size();
  const auto t0 = Clock::now();
  auto op = p.prove_start(key, in, gpu, worker);
  p.finish(std::move(op), out, times);
  return seconds_since(t0) * 1e3;
}

template <PairingEngine E>
void run_size(const sdk::HostServices& host, const Args& a, unsigned log_n, const char* curve, std::vector<Row>& rows,
              std::FILE* csv, bool throughput) {
  using Fr = typename E::Fr;
  Row row;
  row.curve = curve;
  row.log_n = log_n;
  auto t0 = Clock::now();
  const auto circuit = test::synthetic_circuit(log_n);
  const std::vector<std::byte> zkey = test::synthetic_zkey<E>(circuit);
  const auto witness = test::synthetic_witness<Fr>(circuit);
  row.gen_s = seconds_since(t0);

  auto prover = make_prover(host, a);
  auto src = make<zkp_key_source_t>();
  src.data = zkey.data();
  src.size = zkey.size();
  t0 = Clock::now();
  auto key = prover->key_load(src, throughput ? -1 : 0);
  row.load_s = seconds_since(t0);
  auto info = make<zkp_key_info_t>();
  prover->key_info(*key, info);
  auto w = make<zkp_witness_t>();
  w.kind = ZKP_WITNESS_ASSIGNMENT;
  w.data = witness.data();
  w.size = witness.size() * sizeof(witness[0]);
  t0 = Clock::now();
  auto syn = prover->synthesize(*key, w);
  row.synth_ms = seconds_since(t0) * 1e3;
  std::vector<std::uint8_t> proof(info.proof_size), publics(info.public_size);

  prove_once(*prover, *key, *syn, 0, 0, proof, publics, nullptr);  // warm-up: first launches, page faults
  std::vector<double> wall, dev, span, up, ma, mb1, mb2, mc, mh, h, lane, epi;
  for (unsigned r = 0; r < a.reps; ++r) {
    DeviceStageTimes t;
    wall.push_back(prove_once(*prover, *key, *syn, 0, 0, proof, publics, &t));
    dev.push_back(t.stage_sum_ms());
    span.push_back(t.span_ms);
    up.push_back(t.upload_ms);
    ma.push_back(t.msm_a_ms);
    mb1.push_back(t.msm_b1_ms);
    mb2.push_back(t.msm_b2_ms);
    mc.push_back(t.msm_c_ms);
    mh.push_back(t.msm_h_ms);
    h.push_back(t.h_ms);
    lane.push_back(t.lane_ms);
    epi.push_back(t.epilogue_ms);
    row.t.g2_on_host = t.g2_on_host;
    row.t.h_on_host = t.h_on_host;
  }
  row.wall_ms = median(wall);
  row.t.upload_ms = median(up);
  row.t.msm_a_ms = median(ma);
  row.t.msm_b1_ms = median(mb1);
  row.t.msm_b2_ms = median(mb2);
  row.t.msm_c_ms = median(mc);
  row.t.msm_h_ms = median(mh);
  row.t.h_ms = median(h);
  row.t.lane_ms = median(lane);
  row.t.epilogue_ms = median(epi);
  row.t.span_ms = median(span);
  const double device_ms = median(dev);
  std::printf("%-9s 2^%-2u gen %5.1f s load %5.2f s synth %7.1f ms | proof %8.1f ms span %8.2f ms stages %7.2f ms | "
              "upload %5.2f A %6.2f B1 %6.2f C %6.2f H %6.2f (device ms) | H step %7.1f ms (%s) B2 %7.1f ms (%s) | "
              "epilogue %5.1f ms\n",
              curve, log_n, row.gen_s, row.load_s, row.synth_ms, row.wall_ms, row.t.span_ms, device_ms, row.t.upload_ms,
              row.t.msm_a_ms,
              row.t.msm_b1_ms, row.t.msm_c_ms, row.t.msm_h_ms, row.t.h_ms, row.t.h_on_host ? "host" : "device",
              row.t.msm_b2_ms, row.t.g2_on_host ? "host" : "device", row.t.epilogue_ms);
  std::fflush(stdout);
  if (csv != nullptr) {
    std::fprintf(csv, "%s,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%.3f,%s,%.3f,%.3f\n", curve,
                 log_n, row.gen_s, row.load_s, row.synth_ms, row.wall_ms, row.t.span_ms, device_ms, row.t.upload_ms,
                 row.t.msm_a_ms,
                 row.t.msm_b1_ms, row.t.msm_c_ms, row.t.msm_h_ms, row.t.h_ms, row.t.h_on_host ? "host" : "device",
                 row.t.msm_b2_ms, row.t.g2_on_host ? "host" : "device", row.t.lane_ms, row.t.epilogue_ms);
    std::fflush(csv);
  }
  rows.push_back(row);

  if (throughput) {
    // Proofs per second with every worker busy: device 0 alone, then gpu_index -1 over all.
    const unsigned devices = prover->device_count();
    const auto rate = [&](int32_t gpu) {
      const unsigned threads = a.workers * devices * 2;
      std::atomic<unsigned> next{0};
      std::atomic<std::uint64_t> span_us{0};
      const auto t_start = Clock::now();
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          std::vector<std::uint8_t> pr(info.proof_size), pu(info.public_size);
          DeviceStageTimes st;
          while (next.fetch_add(1) < a.throughput_proofs) {
            prove_once(*prover, *key, *syn, gpu, t, pr, pu, &st);
            span_us.fetch_add(static_cast<std::uint64_t>(st.span_ms * 1e3));
          }
        });
      }
      for (auto& t : pool) t.join();
      const double per_s = a.throughput_proofs / seconds_since(t_start);
      // PACING.md's feed-forward: mean gpu_duration / workers should be the interval between
      // completions when every worker is busy.
      const unsigned workers = gpu < 0 ? a.workers * devices : a.workers;
      std::printf("throughput %-9s 2^%-2u gpu_index %2d: %.2f proofs/s, interval %.2f ms; mean gpu_duration %.2f ms "
                  "/ %u workers = %.2f ms\n",
                  curve, log_n, gpu, per_s, 1e3 / per_s, span_us.load() / 1e3 / a.throughput_proofs, workers,
                  span_us.load() / 1e3 / a.throughput_proofs / workers);
      return per_s;
    };
    const double one = rate(0);
    const double any = rate(-1);
    std::vector<std::uint64_t> per_device;
    for (unsigned d = 0; d < devices; ++d) {
      auto di = make<zkp_device_info_t>();
      prover->device_info(d, di);
      per_device.push_back(di.partitions_proved);
    }
    std::printf("throughput %-9s 2^%-2u %u device(s) x %u workers: gpu_index 0: %.2f proofs/s, gpu_index -1: %.2f proofs/s,"
                " ratio %.2f; proofs per device:",
                curve, log_n, devices, a.workers, one, any, any / one);
    for (auto n : per_device) std::printf(" %llu", static_cast<unsigned long long>(n));
    std::printf("\n");
    std::fflush(stdout);
  }
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", k.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (k == "--curve") a.curve = next();
    else if (k == "--min-log") a.min_log = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--max-log") a.max_log = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--reps") a.reps = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--workers") a.workers = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--precompute") a.precompute = next();
    else if (k == "--g2") a.g2 = next();
    else if (k == "--h") a.h = next();
    else if (k == "--synthesis") a.synthesis = next();
    else if (k == "--msm-order") a.msm_order = next();
    else if (k == "--msm-scratch") a.msm_scratch = next();
    else if (k == "--budget-s") a.budget_s = std::stod(next());
    else if (k == "--csv") a.csv = next();
    else if (k == "--throughput-log") a.throughput_log = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--throughput-proofs") a.throughput_proofs = static_cast<unsigned>(std::stoul(next()));
    else {
      std::fprintf(stderr, "unknown argument %s (see the comment at the top of bench_cuda_prover.cpp)\n", k.c_str());
      std::exit(2);
    }
  }
  return a;
}

// The prover's log on stdout, beside the figures: key_load's lines carry its stage times (read
// and decoded, each section's upload and precomputation, the workers' scratch).
void print_log(void*, zkp_log_level_t, const char* message) {
  std::printf("  log: %s\n", message);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  auto services = make<zkp_host_services_t>();
  services.log = print_log;
  const sdk::HostServices host(&services);
  std::FILE* csv = a.csv.empty() ? nullptr : std::fopen(a.csv.c_str(), "w");
  if (csv != nullptr) {
    std::fprintf(csv, "curve,log_n,gen_s,load_s,synth_ms,proof_ms,span_ms,stage_sum_ms,upload_ms,msm_a_ms,msm_b1_ms,msm_c_ms,"
                      "msm_h_ms,h_ms,h_on,msm_b2_ms,b2_on,lane_ms,epilogue_ms\n");
  }
  std::vector<Row> rows;
  const auto t_start = Clock::now();
  int status = 0;
  try {
    {
      auto probe = make_prover(host, a);
      if (probe->device_count() == 0) {
        std::printf("no device: %s\n", probe->no_device_reason().c_str());
        return 1;
      }
      std::printf("# cuda prover bench: %u device(s), workers=%u, msm_precompute=%s, g2=%s, h=%s\n", probe->device_count(),
                  a.workers, a.precompute.c_str(), to_string(probe->options().g2), to_string(probe->options().h));
    }
    for (unsigned log_n = a.min_log; log_n <= a.max_log; ++log_n) {
      for (const char* curve : {"bn254", "bls12_381"}) {
        if (a.curve != "both" && a.curve != curve) continue;
        if (seconds_since(t_start) > a.budget_s) {
          std::printf("%-9s 2^%-2u skipped: past the %.0f s budget\n", curve, log_n, a.budget_s);
          continue;
        }
        const bool tp = log_n == a.throughput_log;
        if (std::strcmp(curve, "bn254") == 0) run_size<bn254::Engine>(host, a, log_n, curve, rows, csv, tp);
        else run_size<bls12_381::Engine>(host, a, log_n, curve, rows, csv, tp);
      }
    }
  } catch (const std::exception& e) {
    std::printf("bench failed: %s\n", e.what());
    status = 1;
  }
  if (csv != nullptr) std::fclose(csv);
  return status;
}
