#include "command.hpp"

#include <algorithm>
#include <cstring>

namespace zkp::cli {

namespace {

// Function-local so registration from other files' static initializers is safe.
std::vector<Command>& registry() {
  static std::vector<Command> list;
  return list;
}

}  // namespace

Registrar::Registrar(const Command& command) {
  auto& list = registry();
  list.push_back(command);
  std::sort(list.begin(), list.end(),
            [](const Command& a, const Command& b) { return std::strcmp(a.name, b.name) < 0; });
}

const std::vector<Command>& commands() { return registry(); }

const Command* find_command(const std::string& name) {
  for (const Command& c : registry()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

}  // namespace zkp::cli
