#include "bench/report.hpp"

#include "core/formats/json.hpp"

#include <cstdio>

namespace zkp::cli::bench {

namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kNsPerS = 1e9;
constexpr double kP50 = 50.0;
constexpr double kP99 = 99.0;

double ms(uint64_t ns) { return static_cast<double>(ns) / kNsPerMs; }

// The numbers every format shows for one point, computed once.
struct Row {
  const PointResult& r;
  double p50_ms, p99_ms, rate, busy, wall_s;
  explicit Row(const PointResult& result)
      : r(result),
        p50_ms(ms(nearest_rank(result.latency_ns, kP50))),
        p99_ms(ms(nearest_rank(result.latency_ns, kP99))),
        rate(proofs_per_second(result)),
        busy(busy_fraction(result)),
        wall_s(static_cast<double>(result.wall_ns) / kNsPerS) {}
};

template <typename... A>
void append(std::string& out, const char* format, A... args) {
  char line[512];
  std::snprintf(line, sizeof line, format, args...);
  out += line;
}

unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

}  // namespace

std::string format_table(const BenchInfo& info, const std::vector<PointResult>& results) {
  std::string out;
  append(out, "prover %s on %s; key %s; witness %s; %u warm-up proof(s) per point excluded\n\n",
         info.prover.c_str(), info.target.c_str(), info.key.c_str(), info.witness.c_str(), info.warmup);
  if (info.keygen_s >= 0) {
    append(out, "synthetic key generated in %.3f s on %u thread(s); INSECURE, for benchmarks only\n\n", info.keygen_s,
           info.keygen_threads);
  }
  out += "| workers | synth threads | in flight | proofs | failed | verified | proofs/s | p50 ms | p99 ms | busy |\n";
  out += "|--------:|--------------:|----------:|-------:|-------:|---------:|---------:|-------:|-------:|-----:|\n";
  for (const PointResult& result : results) {
    const Row row(result);
    append(out, "| %7u | %13u | %9u | %6zu | %6llu | %8llu | %8.3f | %6.1f | %6.1f | %3.0f%% |\n",
           result.point.workers_per_device, result.point.synthesis_threads, result.point.in_flight,
           result.latency_ns.size(), ull(result.failed), ull(result.verified), row.rate, row.p50_ms, row.p99_ms,
           row.busy * 100.0);
  }
  return out;
}

std::string format_json(const BenchInfo& info, const std::vector<PointResult>& results) {
  std::string out = "{\"zkpipe_version\":" + json_quoted(info.zkpipe_version);
  append(out, ",\"started_unix_ms\":%llu", ull(info.started_unix_ms));
  out += ",\"host\":{\"name\":" + json_quoted(info.host_name) + ",\"cpu\":" + json_quoted(info.cpu);
  append(out, ",\"hardware_threads\":%u,\"memory_bytes\":%llu}", info.hardware_threads, ull(info.memory_bytes));
  out += ",\"prover\":" + json_quoted(info.prover) + ",\"target\":" + json_quoted(info.target) +
                    ",\"key\":" + json_quoted(info.key) + ",\"witness\":" + json_quoted(info.witness);
  append(out, ",\"warmup\":%u", info.warmup);
  if (info.keygen_s >= 0) append(out, ",\"keygen_s\":%.6f,\"keygen_threads\":%u", info.keygen_s, info.keygen_threads);
  out += ",\"busy_samples\":[";
  bool first_sample = true;
  for (std::size_t i = 0; i < results.size(); ++i) {
    for (const BusySample& sample : results[i].busy_samples) {
      append(out, "%s{\"point\":%zu,\"t_s\":%.6f,\"busy\":[", first_sample ? "" : ",", i, sample.t_s);
      for (std::size_t d = 0; d < sample.share.size(); ++d) append(out, "%s%.4f", d == 0 ? "" : ",", sample.share[d]);
      out += "],\"busy_ns\":[";
      for (std::size_t d = 0; d < sample.busy_ns.size(); ++d) append(out, "%s%llu", d == 0 ? "" : ",", ull(sample.busy_ns[d]));
      out += "]}";
      first_sample = false;
    }
  }
  out += "],\"points\":[";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Row row(results[i]);
    const Point& p = results[i].point;
    append(out,
           "%s{\"workers_per_device\":%u,\"synthesis_threads\":%u,\"in_flight\":%u,\"proofs\":%zu,\"failed\":%llu,"
           "\"verified\":%llu,\"wall_s\":%.6f,\"proofs_per_s\":%.6f,\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"busy\":%.4f}",
           i == 0 ? "" : ",", p.workers_per_device, p.synthesis_threads, p.in_flight, results[i].latency_ns.size(),
           ull(results[i].failed), ull(results[i].verified), row.wall_s, row.rate, row.p50_ms, row.p99_ms, row.busy);
  }
  return out + "]}\n";
}

std::string format_csv(const std::vector<PointResult>& results) {
  std::string out =
      "workers_per_device,synthesis_threads,in_flight,proofs,failed,verified,wall_s,proofs_per_s,p50_ms,p99_ms,busy\n";
  for (const PointResult& result : results) {
    const Row row(result);
    const Point& p = result.point;
    append(out, "%u,%u,%u,%zu,%llu,%llu,%.6f,%.6f,%.3f,%.3f,%.4f\n", p.workers_per_device, p.synthesis_threads,
           p.in_flight, result.latency_ns.size(), ull(result.failed), ull(result.verified), row.wall_s, row.rate,
           row.p50_ms, row.p99_ms, row.busy);
  }
  return out;
}

}  // namespace zkp::cli::bench
