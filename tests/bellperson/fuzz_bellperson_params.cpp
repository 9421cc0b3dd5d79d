// Fuzz entry point: ParamsFile::read on arbitrary bytes, then every decode it allows (the
// verifying key and each query, fully checked). Refusals must be FormatErrors (fuzz_common.hpp).
// Each query is also streamed (ParamsFile::stream, the device key_load's path) in pieces of 3
// points through two buffers: it must hand over exactly the points decode() wrote, in order, or
// fail with decode()'s message.
#include <cstring>
#include <string>
#include <vector>

#include "core/bellperson/params.hpp"
#include "core/formats/error.hpp"
#include "core/util/thread_pool.hpp"
#include "fuzz_common.hpp"

namespace {

using zkp::bellperson::Extent;
using zkp::bellperson::ParamsFile;

constexpr std::uint64_t kPiece = 3;

template <class C>
void decode_and_stream(const ParamsFile& whole, const ParamsFile& pieces, const Extent& where, std::uint64_t count,
                       zkp::ThreadPool& pool, const char* what) {
  using Base = zkp::msm::Base<C>;
  std::vector<Base> out(count);
  std::string decode_error;
  try {
    whole.decode<C>(where, out, zkp::PointCheck::subgroup, pool, what);
  } catch (const zkp::FormatError& e) {
    decode_error = e.what();
  }
  std::vector<Base> streamed, a(kPiece), b(kPiece);
  std::string stream_error;
  try {
    pieces.stream<C>(where, {std::span<Base>(a), std::span<Base>(b)}, zkp::PointCheck::subgroup, pool, what,
                     [&](std::uint64_t first, std::span<const Base> decoded) {
                       if (first != streamed.size()) __builtin_trap();  // out of order
                       streamed.insert(streamed.end(), decoded.begin(), decoded.end());
                     });
  } catch (const zkp::FormatError& e) {
    stream_error = e.what();
  }
  if (stream_error != decode_error) __builtin_trap();
  if (decode_error.empty() &&
      (streamed.size() != out.size() || std::memcmp(streamed.data(), out.data(), out.size() * sizeof(Base)) != 0)) {
    __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using zkp::bls12_381::G1;
  using zkp::bls12_381::G2;
  static zkp::ThreadPool pool(1);
  zkp::fuzz::refuse_only_with_format_error([&] {
    const auto source = [&] { return zkp::ByteSource::borrow(zkp::fuzz::as_bytes(data, size), "fuzz.params"); };
    const auto file = ParamsFile::read(source());
    const auto pieces = ParamsFile::read(source(), kPiece);
    const zkp::bellperson::ParamsLayout& p = file.layout();
    for (zkp::ByteView v : {p.alpha_g1, p.delta_g2, p.ic}) zkp::fuzz::touch(v);
    decode_and_stream<G1>(file, pieces, p.h, p.h_count, pool, "h");
    decode_and_stream<G1>(file, pieces, p.l, p.l_count, pool, "l");
    decode_and_stream<G1>(file, pieces, p.a, p.a_count, pool, "a");
    decode_and_stream<G1>(file, pieces, p.b_g1, p.b_g1_count, pool, "b_g1");
    decode_and_stream<G2>(file, pieces, p.b_g2, p.b_g2_count, pool, "b_g2");
    (void)zkp::bellperson::decode_verifying_points(file);
  });
  return 0;
}
