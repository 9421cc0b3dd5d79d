// Fuzz entry point: read_wtns on arbitrary bytes, then the public-signal extraction.
#include "core/formats/groth16_json.hpp"
#include "core/formats/wtns.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  zkp::fuzz::refuse_only_with_format_error([&] {
    const zkp::Wtns w =
        zkp::read_wtns(zkp::ByteSource::borrow(zkp::fuzz::as_bytes(data, size), "fuzz.wtns"));
    if (w.size() > 1) {
      const std::uint32_t n_public = w.size() - 1 < 4 ? w.size() - 1 : 4;
      (void)zkp::write_public_json(zkp::public_signals(w, n_public));
    }
  });
  return 0;
}
