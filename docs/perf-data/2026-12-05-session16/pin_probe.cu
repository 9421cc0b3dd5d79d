// pin_probe: how fast can a process get S bytes of page-locked host memory, and how fast does
// the DMA read it? Issue 18 item 4: the workers' pinned staging (cudaMallocHost of ~1.6 GB at a
// 2^24 BLS12-381 key) is most of key_load. Each case allocates, measures, frees.
//   nvcc -O2 -arch=sm_90 -o pin_probe pin_probe.cu -lpthread
//   pin_probe [GiB=2]
#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;
static double ms(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

static void parallel(int k, auto fn) {
  std::vector<std::thread> t;
  for (int i = 0; i < k; ++i) t.emplace_back(fn, i);
  for (auto& x : t) x.join();
}

// 8 MiB chunks queued on one stream, as staged_upload does: GB/s of an S-byte upload.
static double upload_gbs(const char* src, char* dev, size_t S) {
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = Clock::now();
    for (size_t off = 0; off < S; off += 8u << 20) CK(cudaMemcpyAsync(dev + off, src + off, std::min<size_t>(8u << 20, S - off), cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    double gbs = S / ms(t0) / 1e6;
    if (gbs > best) best = gbs;
  }
  CK(cudaStreamDestroy(s));
  return best;
}

int main(int argc, char** argv) {
  const size_t S = (argc > 1 ? std::atoi(argv[1]) : 2) * (size_t(1) << 30);
  const int hw = std::thread::hardware_concurrency();
  CK(cudaFree(nullptr));
  char* dev;
  CK(cudaMalloc(&dev, S));
  std::printf("pin_probe: %.1f GiB, %d host threads\n", S / double(1 << 30), hw);

  for (int k : {1, 2, 4, 8, 16}) {
    std::vector<char*> p(k);
    auto t0 = Clock::now();
    parallel(k, [&](int i) { CK(cudaMallocHost(reinterpret_cast<void**>(&p[i]), S / k)); });
    double alloc = ms(t0);
    double gbs = k == 1 ? upload_gbs(p[0], dev, S) : 0;
    t0 = Clock::now();
    parallel(k, [&](int i) { CK(cudaFreeHost(p[i])); });
    std::printf("cudaMallocHost   %2d threads x %6zu MiB: %8.1f ms (%.2f GB/s pinned)%s free %.1f ms",
                k, (S / k) >> 20, alloc, S / alloc / 1e6, "", ms(t0));
    if (k == 1) std::printf("  upload %.1f GB/s", gbs);
    std::printf("\n");
  }
  for (int thp : {0, 1}) {
    for (int k : {1, 4, 16}) {
      auto t0 = Clock::now();
      char* m = static_cast<char*>(mmap(nullptr, S, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
      madvise(m, S, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
      // touch from every thread: the pages exist before they are locked
      parallel(hw, [&](int i) { size_t a = S / hw * i, b = i == hw - 1 ? S : S / hw * (i + 1); for (size_t o = a; o < b; o += 4096) m[o] = 0; });
      double touch = ms(t0);
      parallel(k, [&](int i) { CK(cudaHostRegister(m + S / k * i, S / k, cudaHostRegisterDefault)); });
      double total = ms(t0);
      double gbs = upload_gbs(m, dev, S);
      parallel(k, [&](int i) { CK(cudaHostUnregister(m + S / k * i)); });
      munmap(m, S);
      std::printf("mmap%s+touch+cudaHostRegister %2d threads: %8.1f ms (touch %.1f)  upload %.1f GB/s\n", thp ? "(THP)" : "     ", k, total, touch, gbs);
    }
  }
  // cudaMallocHost pieces on several threads: does a piece's upload run as fast as one buffer's?
  {
    const int k = 4;
    std::vector<char*> p(k);
    parallel(k, [&](int i) { CK(cudaMallocHost(reinterpret_cast<void**>(&p[i]), S / k)); });
    double best = 0;
    for (int i = 0; i < k; ++i) { double g = upload_gbs(p[i], dev, S / k); if (g > best) best = g; }
    std::printf("cudaMallocHost piece of %zu MiB: upload %.1f GB/s\n", (S / k) >> 20, best);
    for (auto q : p) CK(cudaFreeHost(q));
  }
  CK(cudaFree(dev));
}
