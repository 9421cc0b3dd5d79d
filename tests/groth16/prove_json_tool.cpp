// groth16_prove_json ZKEY WTNS OUTDIR [R S]
// Proves with the zkpipe core and writes OUTDIR/proof.json and OUTDIR/public.json exactly as
// `snarkjs groth16 prove` formats them, so that snarkjs can verify them and a diff can compare
// them. R and S are decimal; without them they come from the OS CSPRNG. A test tool only.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "core/formats/groth16_json.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/point_check.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/randomness.hpp"
#include "core/groth16/witness.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"

namespace {

using namespace zkp;

template <CurveParams C>
void put(const Affine<C>& p, std::vector<ByteVec*> coords) {
  std::vector<std::uint8_t> b(kAffineBytes<C>);
  encode_affine<C>(p, std::span<std::uint8_t, kAffineBytes<C>>(b));
  const std::size_t n = b.size() / coords.size();
  for (std::size_t i = 0; i < coords.size(); ++i) {
    coords[i]->resize(n);
    std::memcpy(coords[i]->data(), b.data() + i * n, n);
  }
}

template <PairingEngine E>
int run(Zkey zkey, const Wtns& wtns, const std::filesystem::path& out, int argc, char** argv) {
  using Fr = typename E::Fr;
  ThreadPool pool;
  const groth16::ProvingKey<E> key(std::move(zkey));
  check_witness_matches(key.zkey(), wtns);
  auto w = groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
  Fr r = groth16::os_random_scalar<Fr>(), s = groth16::os_random_scalar<Fr>();
  if (argc == 6) {
    r = Fr::from_decimal(argv[4]).value();
    s = Fr::from_decimal(argv[5]).value();
  }
  const auto syn = groth16::synthesize<E>(key, std::move(w), pool);
  const auto proof = groth16::prove<E>(key, groth16::prove_input(syn, pool), r, s, pool);
  Groth16Proof json;
  json.curve = key.zkey().header().curve;
  json.a.infinity = proof.a.infinity;
  json.b.infinity = proof.b.infinity;
  json.c.infinity = proof.c.infinity;
  put<typename E::G1>(proof.a, {&json.a.x, &json.a.y});
  put<typename E::G2>(proof.b, {&json.b.x_c0, &json.b.x_c1, &json.b.y_c0, &json.b.y_c1});
  put<typename E::G1>(proof.c, {&json.c.x, &json.c.y});
  std::ofstream(out / "proof.json", std::ios::binary) << write_proof_json(json);
  const auto publics = public_signals(wtns, key.n_public());
  std::ofstream(out / "public.json", std::ios::binary) << write_public_json(publics);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 6) {
    std::cerr << "usage: groth16_prove_json ZKEY WTNS OUTDIR [R S]\n";
    return 2;
  }
  try {
    Zkey zkey = read_zkey(ByteSource::from_file(argv[1]));
    const Wtns wtns = read_wtns(ByteSource::from_file(argv[2]));
    std::filesystem::create_directories(argv[3]);
    if (zkey.header().curve == Curve::bn254) return run<bn254::Engine>(std::move(zkey), wtns, argv[3], argc, argv);
    return run<bls12_381::Engine>(std::move(zkey), wtns, argv[3], argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "groth16_prove_json: " << e.what() << "\n";
    return 1;
  }
}
