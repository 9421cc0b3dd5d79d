// Fuzz entry point: read_r1cs on arbitrary bytes, then decode every constraint and evaluate it
// with a toy field (integers mod 2^61 - 1 from each value's low 8 bytes) to drive
// r1cs_check.hpp over whatever the parser accepted.
#include "core/formats/r1cs.hpp"
#include "core/formats/r1cs_check.hpp"
#include "fuzz_common.hpp"

namespace {
struct ToyField {
  static constexpr std::uint64_t kP = (std::uint64_t{1} << 61) - 1;  // a Mersenne prime
  std::uint64_t v = 0;
  static ToyField from_bytes(zkp::ByteView b) {
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < b.size() && i < 8; ++i)
      x |= static_cast<std::uint64_t>(b[i]) << (8 * i);
    return {x % kP};
  }
  friend ToyField operator+(ToyField a, ToyField b) { return {(a.v + b.v) % kP}; }
  friend ToyField operator*(ToyField a, ToyField b) {
    return {static_cast<std::uint64_t>(static_cast<unsigned __int128>(a.v) * b.v % kP)};
  }
  friend bool operator==(ToyField, ToyField) = default;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  zkp::fuzz::refuse_only_with_format_error([&] {
    const zkp::R1cs cs =
        zkp::read_r1cs(zkp::ByteSource::borrow(zkp::fuzz::as_bytes(data, size), "fuzz.r1cs"));
    std::vector<ToyField> w(cs.header().n_wires, ToyField{1});
    (void)zkp::first_unsatisfied<ToyField>(cs, std::span<const ToyField>(w));
    if (cs.header().n_wires > 0) (void)cs.wire_label(cs.header().n_wires - 1);
  });
  return 0;
}
