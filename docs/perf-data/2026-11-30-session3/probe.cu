// Does a sticky fault on device 0 poison device 1 in the same process?
#include <cuda_runtime_api.h>
#include <cstdio>
#include <thread>
__global__ void store(int* p) { *p = 1; }
static void report(const char* what, cudaError_t e) { std::printf("%-40s %s\n", what, cudaGetErrorString(e)); }
static void use_device1(const char* who) {
  std::printf("-- %s\n", who);
  report("cudaSetDevice(1)", cudaSetDevice(1));
  cudaEvent_t ev; report("cudaEventCreate", cudaEventCreate(&ev));
  report("cudaEventRecord", cudaEventRecord(ev, 0));
  int* p = nullptr; report("cudaMalloc", cudaMalloc(&p, 4));
  store<<<1, 1>>>(p); report("launch", cudaGetLastError());
  report("cudaDeviceSynchronize", cudaDeviceSynchronize());
}
int main() {
  int n = 0; cudaGetDeviceCount(&n); std::printf("devices %d\n", n);
  use_device1("before the fault, main thread");
  report("cudaSetDevice(0)", cudaSetDevice(0));
  store<<<1, 1>>>(reinterpret_cast<int*>(0x8));
  report("fault on device 0: sync", cudaDeviceSynchronize());
  report("device 0 again: cudaMalloc", cudaMalloc(reinterpret_cast<void**>(&n), 4));
  std::thread t([] { use_device1("after, a fresh thread"); });
  t.join();
  use_device1("after, main thread");
}
