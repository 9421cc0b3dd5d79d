#include "ini_file.hpp"

#include <zkpipe/sdk/error.hpp>

#include <sys/stat.h>

#include <fstream>
#include <map>
#include <sstream>

namespace zkp::host {

namespace {

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const size_t last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

// Where the comment of `line` starts (npos: none): at a '#' that begins the line or follows a
// space or tab, so "socket = a#b.sock" keeps its '#' and "devices = 2  # two" is 2.
size_t comment_start(const std::string& line) {
  for (size_t at = line.find('#'); at != std::string::npos; at = line.find('#', at + 1)) {
    if (at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t') return at;
  }
  return std::string::npos;
}

}  // namespace

std::vector<IniSetting> read_ini_file(const std::filesystem::path& file) {
  using sdk::Error;
  // stat, not open: a FIFO given as the config file would block the open until a writer came,
  // and /dev/zero would be read for ever (one endless line).
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    throw Error(ZKP_ERR_NOT_FOUND, "config file '" + file.string() + "' does not exist");
  }
  if (!S_ISREG(st.st_mode)) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "config file '" + file.string() + "' is not a regular file");
  }
  if (st.st_size > kMaxIniBytes) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, "config file '" + file.string() + "' is " + std::to_string(st.st_size) +
                                              " bytes; a config file is at most " + std::to_string(kMaxIniBytes));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ZKP_ERR_NOT_FOUND, "config file '" + file.string() + "' cannot be read");
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_ini_text(text, file.string());
}

std::vector<IniSetting> parse_ini_text(const std::string& text, const std::string& name) {
  using sdk::Error;
  std::istringstream in(text);
  std::vector<IniSetting> out;
  std::map<std::string, std::string> set_at;  // key -> the origin that set it
  std::string section;  // "name." inside [name]
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    std::string where = name;
    where.append(":").append(std::to_string(number));  // (GCC 12 -Wrestrict false positive on "x" + string)
    // A NUL would end the value where a plugin reads it as a C string ("3\0 9" read as 3).
    if (raw.find('\0') != std::string::npos) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, where + ": the line holds a NUL byte (a config file is text)");
    }
    const std::string line = trim(raw.substr(0, comment_start(raw)));
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      section = trim(line.substr(1, line.size() - 2)) + ".";
      continue;
    }
    const size_t eq = line.find('=');
    const std::string key = eq == std::string::npos ? std::string() : trim(line.substr(0, eq));
    if (key.empty()) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, name + ": line " + std::to_string(number) + " '" + line +
                                                "' is neither key = value nor [section]");
    }
    const auto [first, inserted] = set_at.emplace(section + key, where);
    if (!inserted) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, where + ": '" + section + key + "' is set again (first at " + first->second +
                                                "); a key is set once in a file");
    }
    out.push_back({section + key, trim(line.substr(eq + 1)), std::move(where)});
  }
  return out;
}

IniSetting read_override(const std::string& text) {
  const std::string origin = "override '" + text + "'";
  const size_t eq = text.find('=');
  if (eq == std::string::npos || trim(text.substr(0, eq)).empty()) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, origin + ": expected key=value");
  }
  return {trim(text.substr(0, eq)), trim(text.substr(eq + 1)), origin};
}

}  // namespace zkp::host
