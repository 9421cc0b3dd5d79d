// Replay-and-mutate driver for the fuzz entry points, for compilers without libFuzzer (GCC) and
// for CI: runs LLVMFuzzerTestOneInput on each seed file, then on deterministic mutations of them
// (seeded, so a failure reproduces with the same arguments), bounded by count and time.
//
//   fuzz_X_replay [--iterations N] [--seconds S] [--seed K] FILE...
//
// A crash, sanitizer report or uncaught non-FormatError exception fails the process; the
// offending input is written to fuzz-crash-<target>.bin first, via the terminate handler.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using Bytes = std::vector<std::uint8_t>;

// splitmix64 (Steele, Lea, Flood 2014): tiny, and identical on every platform, unlike the
// distributions of <random>.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

// Headers and section tables sit in the first bytes of every format; half of the positional
// mutations land there, or most would hit curve-point payload that no parser interprets.
constexpr std::size_t kHeaderBytes = 512;
// Growth cap for insertions: keeps each run's cost near the seeds'.
constexpr std::size_t kMaxGrowth = 4096;

std::size_t pick_offset(Rng& r, std::size_t size) {
  if (size == 0) return 0;
  return r.below(2) == 0 ? r.below(size < kHeaderBytes ? size : kHeaderBytes) : r.below(size);
}

void mutate(Rng& r, Bytes& b, std::size_t seed_size) {
  static const std::uint32_t kInteresting32[] = {
      0,    1,    2,     3,      4,       12,         32,          48,          0x7f,
      0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  static const char kJsonish[] = "{}[]\",:0123456789-+.eE \\tfnu";
  switch (r.below(8)) {
    case 0:  // flip a bit
      if (!b.empty()) b[pick_offset(r, b.size())] ^= static_cast<std::uint8_t>(1u << r.below(8));
      break;
    case 1:  // interesting byte
      if (!b.empty())
        b[pick_offset(r, b.size())] =
            static_cast<std::uint8_t>(kInteresting32[r.below(std::size(kInteresting32))]);
      break;
    case 2: {  // interesting or size-derived little-endian u32 at a 4-aligned offset (counts, ids,
               // lengths)
      if (b.size() < 4) break;
      const std::size_t at = pick_offset(r, b.size() - 3) & ~std::size_t{3};
      std::uint32_t v = kInteresting32[r.below(std::size(kInteresting32))];
      if (r.below(3) == 0) v = static_cast<std::uint32_t>(b.size() + r.below(9) - 4);
      for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
      break;
    }
    case 3:  // truncate
      b.resize(r.below(b.size() + 1));
      break;
    case 4: {  // erase a chunk
      if (b.empty()) break;
      const std::size_t at = pick_offset(r, b.size());
      const std::size_t n = 1 + r.below(std::min<std::size_t>(b.size() - at, 64));
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
              b.begin() + static_cast<std::ptrdiff_t>(at + n));
      break;
    }
    case 5: {  // duplicate a chunk somewhere else
      if (b.empty() || b.size() > seed_size + kMaxGrowth) break;
      const std::size_t from = r.below(b.size());
      const std::size_t n = 1 + r.below(std::min<std::size_t>(b.size() - from, 64));
      const Bytes chunk(b.begin() + static_cast<std::ptrdiff_t>(from),
                        b.begin() + static_cast<std::ptrdiff_t>(from + n));
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(pick_offset(r, b.size())), chunk.begin(),
               chunk.end());
      break;
    }
    case 6:  // insert a JSON-significant character (harmless noise for the binary formats)
      if (b.size() > seed_size + kMaxGrowth) break;
      b.insert(
          b.begin() + static_cast<std::ptrdiff_t>(pick_offset(r, b.size() + 1) % (b.size() + 1)),
          static_cast<std::uint8_t>(kJsonish[r.below(sizeof kJsonish - 1)]));
      break;
    default:  // random byte
      if (!b.empty()) b[pick_offset(r, b.size())] = static_cast<std::uint8_t>(r.next());
      break;
  }
}

const Bytes* g_current = nullptr;
const char* g_name = "fuzz";

[[noreturn]] void dump_and_abort() {
  if (g_current != nullptr) {
    const std::string path = std::string("fuzz-crash-") + g_name + ".bin";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(g_current->data()),
               static_cast<std::streamsize>(g_current->size()));
    std::fprintf(stderr, "%s: input that failed written to %s (%zu bytes)\n", g_name, path.c_str(),
                 g_current->size());
  }
  std::abort();
}

void run(const Bytes& b) {
  g_current = &b;
  LLVMFuzzerTestOneInput(b.data(), b.size());
  g_current = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  long iterations = 2000;
  double seconds = 30;
  std::uint64_t seed = 1;
  std::vector<Bytes> seeds;
  const std::string self = argv[0];
  static std::string name = self.substr(self.find_last_of('/') + 1);
  g_name = name.c_str();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--iterations" && i + 1 < argc) {
      iterations = std::atol(argv[++i]);
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::ifstream in(a, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "%s: cannot read seed file %s\n", g_name, a.c_str());
        return 2;
      }
      seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  if (seeds.empty()) {
    std::fprintf(stderr, "usage: %s [--iterations N] [--seconds S] [--seed K] FILE...\n", g_name);
    return 2;
  }
  std::set_terminate(dump_and_abort);
  const auto start = std::chrono::steady_clock::now();
  for (const Bytes& s : seeds) run(s);
  Rng rng{seed};
  long done = 0;
  for (; done < iterations; ++done) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
      break;
    const Bytes& base = seeds[static_cast<std::size_t>(done) % seeds.size()];
    Bytes b = base;
    const std::size_t n = 1 + rng.below(4);
    for (std::size_t k = 0; k < n; ++k) mutate(rng, b, base.size());
    run(b);
  }
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %zu seeds + %ld mutations (seed %llu) in %.1f s, no failure\n", g_name,
              seeds.size(), done, static_cast<unsigned long long>(seed), took);
  return 0;
}
