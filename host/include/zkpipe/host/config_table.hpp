// The host's configuration keys, each declared once: its name, its default, how its
// text becomes a Config field, and what it means. Config's defaults (Config::Config),
// Config::load's parsing and error messages, `zkpipe --help` and the README's
// configuration table (`zkpipe --help --markdown`) are all made from host_options().
#pragma once

#include <zkpipe/host/config.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace zkp::host {

// A default that depends on the machine the host runs on.
struct MachineDefault {
  const char* words;        // how the README says it: "hardware threads"
  std::string (*value)();   // this machine's default, spelled as a config file would (exactly)
  std::string (*shown)();   // the same, as `zkpipe --help` shows it ("7.8 GiB")
};

struct HostOption {
  const char* key;
  // The default as a config file spells it ("" when the key has none), unless `machine`.
  const char* default_text;
  const MachineDefault* machine;  // nullptr: the default is default_text
  std::string expected;           // what the key accepts, as its errors say
  // Sets the field from `text`; false (the field unchanged) when the text is not accepted.
  std::function<bool(Config&, const std::string& text)> set;
  std::string meaning;

  // The default as Config::Config applies it.
  std::string default_value() const { return machine != nullptr ? machine->value() : default_text; }
};

// The plugin sections: KEY in [NAME], or NAME.KEY, goes to that plugin unread.
struct PluginSection {
  const char* name;  // "prover", "pacer", "serve" (not a plugin: read by `zkpipe serve`)
  std::vector<PluginOption> Config::*options;
  const char* meaning;
};

// In the order `zkpipe --help` and the README list them.
const std::vector<HostOption>& host_options();
const std::vector<PluginSection>& plugin_sections();

// nullptr when `key` is no host option.
const HostOption* find_host_option(std::string_view key);

// "a:b::c" split at ':', empty parts dropped: how a list of folders is written (plugin_path,
// serve.key_dirs).
std::vector<std::string> split_path(const std::string& text);

}  // namespace zkp::host
