// Fuzz entry point: read_zkey on arbitrary bytes, then touch everything it exposes.
#include "core/formats/zkey.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  zkp::fuzz::refuse_only_with_format_error([&] {
    const zkp::Zkey key =
        zkp::read_zkey(zkp::ByteSource::borrow(zkp::fuzz::as_bytes(data, size), "fuzz.zkey"));
    const zkp::ZkeyPoints& p = key.points();
    for (zkp::ByteView v :
         {p.ic, p.a, p.b1, p.b2, p.c, p.h, key.header().alpha1, key.header().delta2}) {
      zkp::fuzz::touch(v);
    }
    const zkp::ZkeyCoefficients& c = key.coefficients();
    if (c.size() > 0) zkp::fuzz::touch(c[c.size() - 1].value);
  });
  return 0;
}
