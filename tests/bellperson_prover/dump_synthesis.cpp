// bellperson_dump_synthesis R1CS WTNS PARAMS OUTDIR: a circom witness synthesized as bellperson
// would hand it to a prover (core/bellperson/synthesis.hpp), written as raw files, with the
// proof zkpipe's cpu prover makes from it for r = 3, s = 5, so that callers in other languages
// (the Rust crate's supraseal module) test their caller-synthesized path against known bytes:
//
//   circuit.params             a copy of PARAMS
//   a.bin b.bin c.bin          abc_size scalars each, 32 bytes, Montgomery form
//   input.bin aux.bin          the assignment, inputs then aux, Montgomery form
//   a_aux_density.bin b_input_density.bin b_aux_density.bin   little-endian u64 words
//   r_s.bin                    r then s, standard form
//   proof.bellperson           the proof, bellperson's compressed 192 bytes
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "core/bellperson/key.hpp"
#include "core/bellperson/proof.hpp"
#include "core/bellperson/prover.hpp"
#include "core/bellperson/synthesis.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/groth16/witness.hpp"

namespace {

using zkp::bellperson::Fr;

template <class T>
void write(const std::filesystem::path& path, const std::vector<T>& v) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::vector<Fr::Int> mont(const std::vector<Fr>& v) {
  std::vector<Fr::Int> out;
  for (const Fr& x : v) out.push_back(x.mont());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: bellperson_dump_synthesis R1CS WTNS PARAMS OUTDIR\n";
    return 2;
  }
  try {
    const std::filesystem::path out = argv[4];
    std::filesystem::create_directories(out);
    zkp::ThreadPool pool(0);
    const zkp::R1cs r1cs = zkp::read_r1cs(zkp::ByteSource::from_file(argv[1]));
    const zkp::Wtns wtns = zkp::read_wtns(zkp::ByteSource::from_file(argv[2]), zkp::Curve::bls12_381);
    const zkp::bellperson::CircuitShape shape = zkp::bellperson::shape_of(r1cs);
    std::optional<std::uint64_t> bad;
    auto s = zkp::bellperson::synthesize<Fr>(
        r1cs, shape, zkp::groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name()), pool, bad);
    if (bad) throw std::runtime_error("the witness does not satisfy constraint " + std::to_string(*bad));
    const zkp::bellperson::Key key(zkp::bellperson::ParamsFile::open(argv[3]),
                                   zkp::PointCheck::subgroup, pool);
    std::filesystem::copy_file(argv[3], out / "circuit.params", std::filesystem::copy_options::overwrite_existing);
    write(out / "a.bin", mont(s.a));
    write(out / "b.bin", mont(s.b));
    write(out / "c.bin", mont(s.c));
    std::vector<Fr> inputs, aux;
    for (std::size_t i = 0; i < s.variables.size(); ++i) {
      (i < shape.num_inputs ? inputs : aux).push_back(Fr::from_bigint_reduce(s.variables[i]));
    }
    write(out / "input.bin", mont(inputs));
    write(out / "aux.bin", mont(aux));
    write(out / "a_aux_density.bin", shape.a_aux);
    write(out / "b_input_density.bin", shape.b_input);
    write(out / "b_aux_density.bin", shape.b_aux);
    const Fr r = Fr::from_u64(3), sr = Fr::from_u64(5);
    write(out / "r_s.bin", std::vector<Fr::Int>{r.to_bigint(), sr.to_bigint()});
    zkp::bellperson::ProveInput in{s.variables, s.a, s.b, s.c, shape.a_aux_density(), shape.b_input_density(),
                                   shape.b_aux_density()};
    const auto proof = zkp::bellperson::prove(key, std::move(in), r, sr, pool);
    std::vector<std::uint8_t> bytes(zkp::bellperson::kProofBytes);
    zkp::bellperson::write_proof(proof, std::span<std::uint8_t, zkp::bellperson::kProofBytes>(bytes.data(), bytes.size()));
    write(out / "proof.bellperson", bytes);
    std::cerr << "bellperson_dump_synthesis: " << shape.abc_size() << " rows, " << shape.num_inputs << " inputs, "
              << shape.num_aux << " aux: " << out.string() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bellperson_dump_synthesis: " << e.what() << "\n";
    return 1;
  }
}
