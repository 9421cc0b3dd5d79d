// bellperson_known_tau_setup CIRCUIT.r1cs OUT.params [--seed N] [--toxic toxic.json]
//
// Writes bellperson Groth16 parameters for a BLS12-381 circom circuit from toxic waste drawn
// from a known seed. INSECURE: for tests and benchmarks only (README.md).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/r1cs.hpp"
#include "core/util/thread_pool.hpp"
#include "params_writer.hpp"
#include "qap_at_tau.hpp"
#include "toxic_waste.hpp"

namespace {

using namespace zkp;
using namespace zkp::bellperson_setup;

constexpr int kUsageError = 2;
constexpr const char* kUsage = "usage: bellperson_known_tau_setup CIRCUIT.r1cs OUT.params [--seed N] [--toxic toxic.json]\n";

struct Args {
  std::string r1cs, params;
  std::uint64_t seed = 1;
  std::optional<std::string> toxic;
};

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if ((arg == "--seed" || arg == "--toxic") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--toxic") {
        a.toxic = value;
        continue;
      }
      std::size_t used = 0;
      try {
        a.seed = std::stoull(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != value.size() || value[0] == '-') return std::nullopt;
    } else if (arg.starts_with("--")) {
      return std::nullopt;
    } else {
      positional.emplace_back(arg);
    }
  }
  if (positional.size() != 2) return std::nullopt;
  a.r1cs = positional[0];
  a.params = positional[1];
  return a;
}

int run(const Args& args) {
  const R1cs circuit = read_r1cs(ByteSource::from_file(args.r1cs));
  require_bls12_381(circuit);  // before anything is written
  const ToxicWaste toxic = draw_toxic_waste(args.seed);
  if (args.toxic) {
    std::ofstream json(*args.toxic);
    json << toxic_waste_json(toxic, args.seed);
    if (!json) throw std::runtime_error("cannot write " + *args.toxic);
  }
  std::ofstream out(args.params, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot open " + args.params + " for writing");
  ThreadPool pool;
  std::fprintf(stderr, "INSECURE known-tau setup (seed %llu) of %s on %u threads\n",
               static_cast<unsigned long long>(args.seed), args.r1cs.c_str(), pool.size());
  ParamsCounts c;
  try {
    c = write_params(circuit, toxic, out, pool, [](std::string_view phase, double s) {
      std::fprintf(stderr, "  %-7.*s %8.3f s\n", static_cast<int>(phase.size()), phase.data(), s);
    });
    out.close();
    if (!out) throw std::runtime_error("writing " + args.params + " failed");
  } catch (...) {
    out.close();
    std::filesystem::remove(args.params);  // no half-written file that a reader could trust
    throw;
  }
  std::fprintf(stderr, "wrote %s: ic %zu, h %zu, l %zu, a %zu, b %zu; %llu bytes\n", args.params.c_str(), c.ic, c.h,
               c.l, c.a, c.b, static_cast<unsigned long long>(params_file_bytes(c)));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fputs(kUsage, stderr);
    return kUsageError;
  }
  try {
    return run(*args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bellperson_known_tau_setup: %s\n", e.what());
    return 1;
  }
}
