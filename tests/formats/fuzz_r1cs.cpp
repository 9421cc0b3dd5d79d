// Fuzz entry point: read_r1cs on arbitrary bytes, then run the prover's own r1cs check
// (core/groth16/r1cs_check.hpp, the one the `r1cs` key option runs) over whatever the parser
// accepted, with an all-ones witness, so every constraint's terms are decoded and evaluated.
#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/formats/r1cs.hpp"
#include "core/groth16/r1cs_check.hpp"
#include "core/util/thread_pool.hpp"
#include "fuzz_common.hpp"

namespace {
template <class Fr>
void evaluate_all(const zkp::R1cs& cs) {
  std::vector<typename Fr::Int> w(cs.header().n_wires, Fr::one().to_bigint());
  zkp::ThreadPool pool(1);  // one thread: the fuzzer wants determinism, not speed
  (void)zkp::groth16::first_unsatisfied_constraint<Fr>(cs, w, pool);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  zkp::fuzz::refuse_only_with_format_error([&] {
    const zkp::R1cs cs =
        zkp::read_r1cs(zkp::ByteSource::borrow(zkp::fuzz::as_bytes(data, size), "fuzz.r1cs"));
    // The parser has checked the prime, so the curve names the field of every coefficient.
    if (cs.header().curve == zkp::Curve::bn254) {
      evaluate_all<zkp::bn254::Fr>(cs);
    } else {
      evaluate_all<zkp::bls12_381::Fr>(cs);
    }
    if (cs.header().n_wires > 0) (void)cs.wire_label(cs.header().n_wires - 1);
  });
  return 0;
}
