#include "toxic_waste.hpp"

#include <random>
#include <sstream>
#include <stdexcept>

namespace zkp::bellperson_setup {

ToxicWaste draw_toxic_waste(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  ToxicWaste t;
  for (bls12_381::Fr* v : {&t.tau, &t.alpha, &t.beta, &t.gamma, &t.delta}) {
    *v = bls12_381::Fr::random(rng);
    if (v->is_zero()) throw std::runtime_error("toxic waste: drew a zero element; use another seed");
  }
  return t;
}

std::string toxic_waste_json(const ToxicWaste& t, std::uint64_t seed) {
  std::ostringstream out;
  out << "{\n  \"seed\": \"" << seed << "\",\n"
      << "  \"tau\": \"" << t.tau.to_decimal() << "\",\n"
      << "  \"alpha\": \"" << t.alpha.to_decimal() << "\",\n"
      << "  \"beta\": \"" << t.beta.to_decimal() << "\",\n"
      << "  \"gamma\": \"" << t.gamma.to_decimal() << "\",\n"
      << "  \"delta\": \"" << t.delta.to_decimal() << "\"\n}\n";
  return out.str();
}

}  // namespace zkp::bellperson_setup
