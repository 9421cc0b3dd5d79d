// Writes the synthetic parameter file of params_writer.hpp to argv[1]: the fuzz replay's seed,
// made at test time so that it always matches the format the tests define.
#include <cstdio>
#include <fstream>

#include "params_writer.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.params\n", argv[0]);
    return 2;
  }
  const auto bytes = zkp::bellperson::test::write_params(zkp::bellperson::test::make_params());
  std::ofstream out(argv[1], std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return out ? 0 : 1;
}
