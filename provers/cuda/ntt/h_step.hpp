// The H step of the Groth16 prover on one GPU: for each of a, b, c on the domain of size
// n = 2^log_n, iFFT → multiply coefficient i by g^i (g = Fr.w[log n + 1]) → FFT, then
// H[i] = a·b − c on the odd coset — exactly provers/core/groth16/h_polynomial.hpp, bit for
// bit (the arithmetic is exact and every value fully reduced, so any correct order of the
// same field operations gives the same bytes).
//
//   cuda::HStep<zkp::bn254::Fr> h(gpu_index, log_n);        // twiddles uploaded once
//   h.run(d_a, d_b, nullptr, count, stream, HForm::standard); // d_a ← H, standard form
//   msm_h.enqueue_device(reinterpret_cast<const std::uint8_t*>(d_a), n, stream);
//
// Buffers are device memory on this object's GPU holding n elements each in the host's
// Fr layout (zkp::Fp<FrParams>: 32 bytes, Montgomery form, little-endian limbs), 16-byte
// aligned (cudaMalloc'd memory is). Host Fr arrays copy in and out with a plain memcpy.
//
// Everything is queued on the caller's stream: no host synchronisation, no allocation in
// run() (the c scratch, when needed, is allocated on the first run that needs it, before
// anything is queued). One object may serve several streams one after another; two runs
// that are in flight at once on different streams must not both use the internal c scratch
// (pass c explicitly then).
//
// Errors throw CudaError (cuda/util/error.hpp) or std::invalid_argument.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/ntt/domain.hpp"

namespace zkp::cuda {

// The form H is left in: Montgomery (as the CPU's h_evaluations returns it) or standard
// (little-endian integers < r: the MSM's scalar input, saving a conversion pass).
enum class HForm { montgomery, standard };

template <class Fr>  // the host scalar field: zkp::bn254::Fr or zkp::bls12_381::Fr
class HStep {
 public:
  // Builds the domain of 2^log_n (log_n ≤ Fr's two-adicity) on the host (zkp::NttDomain)
  // and uploads its twiddles (n elements) and coset tables (≈ 2·√n) to device gpu_index.
  // Blocks until the upload is complete.
  HStep(int gpu_index, std::size_t log_n);
  // The same over a given domain: its ω and coset generator (bellperson's: ω from 7, g = 7;
  // core/bellperson/domain.hpp), for run_coset_quotient, which also needs the inverse-coset
  // tables; or a zkey's own domain (ProvingKey::domain(), built once on the pool) for run,
  // which spares a second host build of the n twiddles (~0.4 s at 2^24 on one thread).
  enum class Use { coset_quotient, odd_coset };
  HStep(int gpu_index, const NttDomain<Fr>& domain, Use use = Use::coset_quotient);
  ~HStep();
  HStep(HStep&&) noexcept;
  HStep& operator=(HStep&&) noexcept;

  int gpu_index() const;
  std::size_t log_n() const;
  std::size_t size() const;  // n

  // H into `a`, queued on `stream`. a, b (and c if not null) are distinct, non-overlapping
  // buffers of n elements each; elements [count, n) of each are set to zero first (the
  // CPU's zero padding; count ≤ n).
  // c == nullptr: c = a∘b, formed in an internal scratch buffer (n elements, allocated on
  // first use). On return (once the stream gets there) a holds H in `form`; b and c hold
  // their odd-coset values (scratch). Throws std::invalid_argument for count > n or
  // misaligned pointers.
  void run(Fr* a, Fr* b, Fr* c, std::size_t count, cudaStream_t stream, HForm form = HForm::montgomery);
  // The same with a count per input (the CPU pads each of a, b, c on its own): elements
  // [a_count, n) of a are zeroed, and so on; c_count is ignored when c is null.
  void run(Fr* a, std::size_t a_count, Fr* b, std::size_t b_count, Fr* c, std::size_t c_count, cudaStream_t stream,
           HForm form = HForm::montgomery);

  // bellperson's H (core/bellperson/h_polynomial.hpp) into `a`, queued on `stream`: a, b, c
  // (count ≤ n elements each, zero-padded to n here) go to the coset g·ω^i, a ← (a·b − c)/(g^n − 1),
  // then the inverse coset transform. On return a holds the n coefficients in BIT-REVERSED order
  // (position p holds coefficient bitrev(p); the last one, n − 1, sits at p = n − 1), standard
  // form: an MSM over a[0, n − 1) against the h query permuted the same way is Σ H_i·h_i. b and c
  // are scratch. Needs the domain constructor.
  void run_coset_quotient(Fr* a, Fr* b, Fr* c, std::size_t count, cudaStream_t stream);

  // The odd-coset transform alone (iFFT → ×g^i → FFT) of `arrays` buffers of n elements,
  // in place, on `stream` (1 ≤ arrays ≤ 3, distinct, not overlapping; the transforms share
  // launches).
  void odd_coset(Fr* const* data, std::size_t arrays, cudaStream_t stream);

  // Montgomery → standard form, in place, `count` elements at `data`, on `stream`.
  void to_standard(Fr* data, std::size_t count, cudaStream_t stream) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class HStep<zkp::bn254::Fr>;
extern template class HStep<zkp::bls12_381::Fr>;

}  // namespace zkp::cuda
