#include "snarkjs_files.hpp"

#include <cstring>

namespace ref {

namespace {

using zkp::sdk::Error;

Affine<Fq> read_g1(Reader& r) {
  const auto x = from_bytes_le(r.take(32).data()), y = from_bytes_le(r.take(32).data());
  if (x == Limbs{} && y == Limbs{}) return {};
  return {Fq::from_mont(x), Fq::from_mont(y), false};
}

Affine<Fq2> read_g2(Reader& r) {
  Limbs c[4];
  for (Limbs& l : c) l = from_bytes_le(r.take(32).data());
  if (c[0] == Limbs{} && c[1] == Limbs{} && c[2] == Limbs{} && c[3] == Limbs{}) return {};
  return {{Fq::from_mont(c[0]), Fq::from_mont(c[1])}, {Fq::from_mont(c[2]), Fq::from_mont(c[3])}, false};
}

template <class Read>
auto read_points(std::span<const uint8_t> section, uint64_t count, uint32_t point_bytes, Read read,
                 const std::string& what) {
  if (section.size() != count * point_bytes) {
    throw Error(ZKP_ERR_BAD_INPUT, what + " is " + std::to_string(section.size()) + " bytes, expected " +
                                       std::to_string(count * point_bytes));
  }
  Reader r(section, what);
  std::vector<decltype(read(r))> out;
  out.reserve(count);
  for (uint64_t i = 0; i < count; ++i) out.push_back(read(r));
  return out;
}

void expect_modulus(Reader& r, const Limbs& modulus, const std::string& what) {
  if (r.u32() != 32 || from_bytes_le(r.take(32).data()) != modulus) {
    throw Error(ZKP_ERR_UNSUPPORTED, what + ": not a BN254 key (this reference backend proves on BN254 only)");
  }
}

}  // namespace

std::map<uint32_t, std::span<const uint8_t>> read_sections(std::span<const uint8_t> file, const char magic[4],
                                                           const std::string& what) {
  Reader r(file, what);
  if (std::memcmp(r.take(4).data(), magic, 4) != 0) {
    throw Error(ZKP_ERR_BAD_INPUT, what + ": not a snarkjs '" + std::string(magic, 4) + "' file");
  }
  r.u32();  // version
  const uint32_t count = r.u32();
  std::map<uint32_t, std::span<const uint8_t>> sections;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t id = r.u32();
    const uint64_t size = r.u64();
    sections[id] = r.take(size);
  }
  return sections;
}

ProvingKey read_zkey(std::span<const uint8_t> file, const std::string& what) {
  auto sections = read_sections(file, "zkey", what);
  auto section = [&](uint32_t id) {
    auto it = sections.find(id);
    if (it == sections.end()) throw Error(ZKP_ERR_BAD_INPUT, what + ": no section " + std::to_string(id));
    return it->second;
  };
  Reader protocol(section(1), what + " section 1");
  if (protocol.u32() != 1) throw Error(ZKP_ERR_UNSUPPORTED, what + ": not a Groth16 key");

  ProvingKey k;
  Reader h(section(2), what + " section 2");
  expect_modulus(h, FqParams::modulus, what);
  expect_modulus(h, FrParams::modulus, what);
  k.n_vars = h.u32();
  k.n_public = h.u32();
  k.domain_size = h.u32();
  if (k.n_vars == 0 || k.n_public >= k.n_vars || k.domain_size == 0 || (k.domain_size & (k.domain_size - 1)) != 0) {
    throw Error(ZKP_ERR_BAD_INPUT, what + ": inconsistent header (nVars, nPublic, domainSize)");
  }
  k.alpha1 = read_g1(h);
  k.beta1 = read_g1(h);
  k.beta2 = read_g2(h);
  k.gamma2 = read_g2(h);
  k.delta1 = read_g1(h);
  k.delta2 = read_g2(h);

  k.ic = read_points(section(3), uint64_t{k.n_public} + 1, 64, read_g1, what + " section 3 (IC)");
  Reader c(section(4), what + " section 4");
  const uint32_t count = c.u32();
  if (c.remaining() != uint64_t{count} * 44) throw Error(ZKP_ERR_BAD_INPUT, what + ": section 4 size");
  k.coefficients.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    Coefficient e{c.u32(), c.u32(), c.u32(), Fr::from_mont(from_bytes_le(c.take(32).data()))};
    if (e.matrix > 1 || e.row >= k.domain_size || e.wire >= k.n_vars || geq(e.value.mont, FrParams::modulus)) {
      throw Error(ZKP_ERR_BAD_INPUT, what + ": coefficient " + std::to_string(i) + " out of range");
    }
    k.coefficients.push_back(e);
  }
  k.a = read_points(section(5), k.n_vars, 64, read_g1, what + " section 5 (A)");
  k.b1 = read_points(section(6), k.n_vars, 64, read_g1, what + " section 6 (B1)");
  k.b2 = read_points(section(7), k.n_vars, 128, read_g2, what + " section 7 (B2)");
  k.c = read_points(section(8), k.n_vars - k.n_public - 1, 64, read_g1, what + " section 8 (C)");
  k.h = read_points(section(9), k.domain_size, 64, read_g1, what + " section 9 (H)");
  return k;
}

std::vector<Limbs> read_wtns(std::span<const uint8_t> file, uint32_t n_vars, const std::string& what) {
  auto sections = read_sections(file, "wtns", what);
  if (!sections.count(1) || !sections.count(2)) throw Error(ZKP_ERR_BAD_INPUT, what + ": no section 1 or 2");
  Reader h(sections[1], what + " section 1");
  if (h.u32() != 32 || from_bytes_le(h.take(32).data()) != FrParams::modulus) {
    throw Error(ZKP_ERR_BAD_INPUT, what + ": not a BN254 witness");
  }
  const uint32_t count = h.u32();
  if (count != n_vars) {
    throw Error(ZKP_ERR_BAD_INPUT,
                what + ": " + std::to_string(count) + " values, the key has " + std::to_string(n_vars) + " wires");
  }
  Reader v(sections[2], what + " section 2");
  std::vector<Limbs> w(count);
  for (Limbs& x : w) {
    x = from_bytes_le(v.take(32).data());
    if (geq(x, FrParams::modulus)) throw Error(ZKP_ERR_BAD_INPUT, what + ": a value is not below r");
  }
  return w;
}

}  // namespace ref
