// A tiny bellperson parameter-file writer for the tests and the fuzz seed: the layout of
// bellperson's Parameters::write (params.rs), with distinct multiples of the generators as points.
#pragma once

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "core/bellperson/params.hpp"

#include "core/ec/zcash_encoding.hpp"
#include "support.hpp"

namespace zkp::bellperson::test {

struct Params {
  Affine<G1> alpha_g1, beta_g1, delta_g1;
  Affine<G2> beta_g2, gamma_g2, delta_g2;
  std::vector<Affine<G1>> ic, h, l, a, b_g1;
  std::vector<Affine<G2>> b_g2;
};

// Counts of a small consistent file: 2 inputs + 4 aux = 6 variables, domain m = 4.
struct Counts {
  std::size_t ic = 2, h = 3, l = 4, a = 5, b = 3;
};

inline Params make_params(const Counts& n = {}) {
  Params p;
  const auto g1 = multiples<G1>(3 + n.ic + n.h + n.l + n.a + n.b);
  const auto g2 = multiples<G2>(3 + n.b);
  std::size_t i = 0;
  p.alpha_g1 = g1[i++];
  p.beta_g1 = g1[i++];
  p.delta_g1 = g1[i++];
  const auto next = [&](std::size_t k) {
    std::vector<Affine<G1>> v(g1.begin() + static_cast<std::ptrdiff_t>(i),
                              g1.begin() + static_cast<std::ptrdiff_t>(i + k));
    i += k;
    return v;
  };
  p.ic = next(n.ic);
  p.h = next(n.h);
  p.l = next(n.l);
  p.a = next(n.a);
  p.b_g1 = next(n.b);
  p.beta_g2 = g2[0];
  p.gamma_g2 = g2[1];
  p.delta_g2 = g2[2];
  p.b_g2.assign(g2.begin() + 3, g2.end());
  return p;
}

template <class C>
void put_point(std::vector<std::uint8_t>& out, const Affine<C>& p) {
  std::array<std::uint8_t, zcash::kUncompressedBytes<C>> b;
  zcash::encode_uncompressed<C>(p, b);
  out.insert(out.end(), b.begin(), b.end());
}

inline void put_u32be(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

template <class C>
void put_points(std::vector<std::uint8_t>& out, const std::vector<Affine<C>>& ps) {
  put_u32be(out, static_cast<std::uint32_t>(ps.size()));
  for (const auto& p : ps) put_point(out, p);
}

inline std::vector<std::uint8_t> write_params(const Params& p) {
  std::vector<std::uint8_t> out;
  put_point(out, p.alpha_g1);
  put_point(out, p.beta_g1);
  put_point(out, p.beta_g2);
  put_point(out, p.gamma_g2);
  put_point(out, p.delta_g1);
  put_point(out, p.delta_g2);
  put_points(out, p.ic);
  put_points(out, p.h);
  put_points(out, p.l);
  put_points(out, p.a);
  put_points(out, p.b_g1);
  put_points(out, p.b_g2);
  return out;
}

// A parameter file on disk for the tests that read one piece by piece (ParamsFile::open), removed
// with the fixture. `name` keeps the files of different suites apart.
class ParamsOnDisk {
 public:
  explicit ParamsOnDisk(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".params")) {}
  ~ParamsOnDisk() { std::filesystem::remove(path_); }
  ParamsOnDisk(const ParamsOnDisk&) = delete;
  ParamsOnDisk& operator=(const ParamsOnDisk&) = delete;

  // Writes `bytes` and opens them with `piece_points` points a piece.
  ParamsFile open(const std::vector<std::uint8_t>& bytes, std::uint64_t piece_points) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    return ParamsFile::open(path_, piece_points);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace zkp::bellperson::test
