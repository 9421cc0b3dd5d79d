// Settings as written, each with where it was written: the INI files the host reads,
// and the key=value overrides of the command line. A file is lines: '#' starts a comment at
// the start of a line or after a space or tab (so a value may hold '#': "socket = a#b.sock";
// "devices = 2  # two" is 2), "[name]" opens a section whose keys read "name.KEY", and every
// other non-blank line is "key = value" (both trimmed; the value may be empty). A key set twice
// in one file and a NUL byte are errors naming file:line (a plugin reads a value as a C string:
// "3\0 9" would be 3). One pass keeps the line of every key.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace zkp::host {

// One key = value as written, and where: "path:line", or "override 'key=value'".
struct IniSetting {
  std::string key;
  std::string value;
  std::string origin;
};

// The largest config file read (a real one is a few hundred bytes).
constexpr long kMaxIniBytes = 1 << 20;

// Every key = value of `file`, in file order. Throws zkp::sdk::Error: ZKP_ERR_NOT_FOUND
// when the file does not exist or cannot be read, ZKP_ERR_INVALID_ARGUMENT when it is not a
// regular file (a FIFO, /dev/zero: refused before it is opened), is over kMaxIniBytes, has
// a line that is none of the above (the message starts with the path and quotes the line), a
// NUL byte, or a key set twice (both messages start with "path:line").
std::vector<IniSetting> read_ini_file(const std::filesystem::path& file);

// The same for INI text already in memory; `name` stands for the file in origins and messages.
std::vector<IniSetting> parse_ini_text(const std::string& text, const std::string& name);

// A command-line override "key=value" (both trimmed). Throws zkp::sdk::Error
// (ZKP_ERR_INVALID_ARGUMENT) without an '=' or with an empty key.
IniSetting read_override(const std::string& text);

}  // namespace zkp::host
