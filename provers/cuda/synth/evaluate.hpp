// The constraint system on the device: a key's SparseSystem (sparse_system.hpp) uploaded once,
// and a = A·w, b = B·w computed from a witness already on the device (issue 40: the host's
// O(constraints) pass and the upload of a and b replaced by the witness's upload).
//
// Threads: a DeviceSparseSystem is immutable once uploaded; evaluate_ab may run on several
// streams at once. Construct and destroy it with its device current (DeviceGuard).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuda/synth/sparse_system.hpp"
#include "cuda/util/buffers.hpp"

namespace zkp::cuda::synth {

struct DeviceSparseMatrix {
  DeviceBuffer<std::uint32_t> row_start, wire, coef;
};

template <class Fr>
class DeviceSparseSystem {
 public:
  // Uploads `s` to the current device, queued on `stream` (synchronized before it returns, so
  // `s` may go at once).
  DeviceSparseSystem(const SparseSystem<Fr>& s, cudaStream_t stream);

  // a[r] = Σ A[r][i]·w[i] and b likewise for every row r < domain_size, in Montgomery form,
  // queued on `stream`. `witness`: n_vars standard-form values (each below r) on this device;
  // `a`, `b`: domain_size values each. Throws on a launch failure.
  void evaluate_ab(const Fr* witness, Fr* a, Fr* b, cudaStream_t stream) const;
  // The same and c = C·w, for a system with a circuit's C (has_c()); `c`: domain_size values.
  void evaluate_abc(const Fr* witness, Fr* a, Fr* b, Fr* c, cudaStream_t stream) const;
  bool has_c() const { return has_c_; }
  // The r1cs C came from, for the messages ("" without C).
  const std::string& circuit() const { return circuit_; }

  std::uint32_t domain_size() const { return domain_size_; }
  std::uint32_t n_vars() const { return n_vars_; }
  std::size_t device_bytes() const { return bytes_; }

 private:
  DeviceSparseMatrix a_, b_, c_;
  bool has_c_ = false;
  std::string circuit_;
  DeviceBuffer<Fr> dictionary_;
  std::uint32_t domain_size_ = 0, n_vars_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace zkp::cuda::synth
