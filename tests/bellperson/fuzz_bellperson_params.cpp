// Fuzz entry point: ParamsFile::read on arbitrary bytes, then every decode it allows (the
// verifying key and each query, fully checked). Refusals must be FormatErrors (fuzz_common.hpp).
#include <vector>

#include "core/bellperson/params.hpp"
#include "core/util/thread_pool.hpp"
#include "fuzz_common.hpp"

namespace {

template <class C>
void decode(const zkp::bellperson::ParamsFile& file, const zkp::bellperson::Extent& where, std::uint64_t count,
            zkp::ThreadPool& pool, const char* what) {
  std::vector<zkp::msm::Base<C>> out(count);
  zkp::fuzz::refuse_only_with_format_error(
      [&] { file.decode<C>(where, out, zkp::PointCheck::subgroup, pool, what); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using zkp::bls12_381::G1;
  using zkp::bls12_381::G2;
  static zkp::ThreadPool pool(1);
  zkp::fuzz::refuse_only_with_format_error([&] {
    const auto file =
        zkp::bellperson::ParamsFile::read(zkp::ByteSource::borrow(zkp::fuzz::as_bytes(data, size), "fuzz.params"));
    const zkp::bellperson::ParamsLayout& p = file.layout();
    for (zkp::ByteView v : {p.alpha_g1, p.delta_g2, p.ic}) zkp::fuzz::touch(v);
    decode<G1>(file, p.h, p.h_count, pool, "h");
    decode<G1>(file, p.l, p.l_count, pool, "l");
    decode<G1>(file, p.a, p.a_count, pool, "a");
    decode<G1>(file, p.b_g1, p.b_g1_count, pool, "b_g1");
    decode<G2>(file, p.b_g2, p.b_g2_count, pool, "b_g2");
    (void)zkp::bellperson::decode_verifying_points(file);
  });
  return 0;
}
