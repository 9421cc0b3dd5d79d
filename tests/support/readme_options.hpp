// A plugin README's example configuration block against the plugin's own option list, so that
// the documentation cannot drift from the code: every option appears with its default, old
// names are mentioned as "(old name: X)", and nothing else is listed.
//
//   the README:   ```ini            the plugin's options_help (zkp_prover_factory_t, what
//                 [prover]           `zkpipe plugins` prints, sdk::OptionTable::help):
//                 plugin = cpu         threads=0              the prover's one pool of ...
//                 threads = 0 ; ...    host_threads=0         the old name of threads (...)
//                 ```
//
// readme_option_mismatches returns one line per disagreement (empty: they agree), so a test
// reports them all at once.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace zkp::test {

inline std::string trim(const std::string& t) {
  const auto b = t.find_first_not_of(" \t");
  const auto e = t.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
}

// The `key = value ; comment` lines from the line `[section]` to the end of its fenced block,
// and the block's text; a line that is not key = value is reported in `bad`.
struct ReadmeBlock {
  std::map<std::string, std::string> values;
  std::string text;
  std::vector<std::string> bad;
};

inline ReadmeBlock read_readme_block(const std::string& path, const std::string& section) {
  ReadmeBlock block;
  std::ifstream in(path);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "[" + section + "]") {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.starts_with("```")) break;
    block.text += line + "\n";
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      block.bad.push_back(line);
      continue;
    }
    block.values[trim(line.substr(0, eq))] = trim(line.substr(eq + 1, line.find(';') - eq - 1));
  }
  return block;
}

// One option of an options_help text: "name=default<spaces>help".
struct HelpOption {
  std::string name, value, help;
};

inline std::vector<HelpOption> parse_options_help(const std::string& help) {
  std::vector<HelpOption> out;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos || line.empty() || line[0] == ' ') continue;  // a wrapped help line
    const auto end = line.find_first_of(" \t", eq);
    HelpOption o;
    o.name = line.substr(0, eq);
    o.value = line.substr(eq + 1, end == std::string::npos ? std::string::npos : end - eq - 1);
    o.help = end == std::string::npos ? std::string() : trim(line.substr(end));
    out.push_back(o);
  }
  return out;
}

// `section`'s block in the README at `path` against `options` (the plugin's). `host_keys` are
// keys the host reads from that section (e.g. "plugin"), allowed in the block.
inline std::vector<std::string> readme_option_mismatches(const std::string& path, const std::string& section,
                                                         const std::vector<HelpOption>& options,
                                                         const std::vector<std::string>& host_keys = {"plugin"}) {
  std::vector<std::string> problems;
  ReadmeBlock block = read_readme_block(path, section);
  for (const std::string& line : block.bad) problems.push_back("not key = value in " + path + ": " + line);
  for (const std::string& key : host_keys) block.values.erase(key);
  if (block.values.empty()) {
    problems.push_back("no [" + section + "] block with options in " + path);
    return problems;
  }
  if (options.empty()) problems.push_back("the plugin lists no options");
  for (const HelpOption& o : options) {
    if (o.help.starts_with("the old name of ")) {
      if (block.text.find("(old name: " + o.name + ")") == std::string::npos)
        problems.push_back("old name '" + o.name + "' is not mentioned as (old name: " + o.name + ")");
      continue;
    }
    const auto it = block.values.find(o.name);
    if (it == block.values.end()) {
      problems.push_back("option '" + o.name + "' is not in the README's [" + section + "] block");
      continue;
    }
    if (it->second != o.value)
      problems.push_back("the README's default of '" + o.name + "' is '" + it->second + "', the plugin's '" + o.value + "'");
    block.values.erase(it);
  }
  for (const auto& [key, value] : block.values)
    problems.push_back("the README's [" + section + "] block lists '" + key + "', which is no option");
  return problems;
}

}  // namespace zkp::test
