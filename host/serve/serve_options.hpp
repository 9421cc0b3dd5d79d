// `zkpipe serve`'s keys ([serve] section, or serve.KEY), each declared once: its name, its
// default, what it accepts, how its text becomes a Settings field, and what it means.
// Settings::from's defaults, parsing and errors, `zkpipe serve --help` (settings_help) and the
// README's table under "## zkpipe serve" (`zkpipe serve --help --markdown`) are all made from
// serve_options(), as the host's keys are from host_options() (zkpipe/host/config_table.hpp).
#pragma once

#include <zkpipe/host/config_table.hpp>

#include "settings.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace zkp::serve {

struct ServeOption {
  const char* key;  // "socket": serve.socket, or socket in [serve]
  // The default as a config file spells it, unless `machine`; "" when the key has none (its
  // field then stays empty, or 0).
  const char* default_text;
  const host::MachineDefault* machine;  // nullptr: the default is default_text
  std::string expected;                 // what the key accepts, as its errors say
  // Sets the field from `text`; false (the field unchanged) when the text is not accepted.
  std::function<bool(Settings&, const std::string& text)> set;
  std::string meaning;

  // The default as Settings::from applies it.
  std::string default_value() const { return machine != nullptr ? machine->value() : default_text; }
};

// In the order `zkpipe serve --help` and the README list them.
const std::vector<ServeOption>& serve_options();

// nullptr when `key` is no serve option.
const ServeOption* find_serve_option(std::string_view key);

}  // namespace zkp::serve
