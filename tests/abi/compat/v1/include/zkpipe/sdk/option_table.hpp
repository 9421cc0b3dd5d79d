// A plugin's options declared once: each entry names an option, the field of the
// plugin's settings struct it sets, what it accepts, and a line of help. The table reads
// the options (OptionTable::read) and writes the factory's options_help (help()), so
// what `zkpipe plugins` prints and what the plugin parses cannot drift apart.
//
// A default is the field's value in a value-initialized settings struct: written once,
// next to the comment that justifies it, and rendered into the help from there.
//
//   struct MySettings { uint64_t interval_ns = 100 * kNsPerMs; bool verbose = false; };
//
//   class MyPacer : public zkp::sdk::Pacer {
//    public:
//     static const zkp::sdk::OptionTable<MySettings>& option_table() {
//       static const zkp::sdk::OptionTable<MySettings> table{
//           zkp::sdk::integer("interval_ms", &MySettings::interval_ns, 1, 60'000, "time between admissions",
//                             kNsPerMs),
//           zkp::sdk::flag("verbose", &MySettings::verbose, "log every admission"),
//       };
//       return table;
//     }
//     MyPacer(..., zkp::sdk::Options& options) : settings_(option_table().read(options)) {}
//   };
//
// The factories (pacer.hpp, prover.hpp) take options_help from option_table() when the
// class has one, else from its kOptionsHelp string.
#pragma once

#include <zkpipe/sdk/options.hpp>
#include <zkpipe/sdk/parse.hpp>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace zkp::sdk {

// One option of a settings struct S.
template <class S>
struct OptionEntry {
  std::string name;
  std::string help;
  std::string expected;                             // what it accepts, as errors and the help say it
  std::function<std::string(const S&)> show;        // the field's value as the option's text
  std::function<bool(S&, const std::string&)> set;  // false: the text is not accepted; S unchanged
};

template <class S>
class OptionTable {
 public:
  OptionTable(std::initializer_list<OptionEntry<S>> entries) : entries_(entries) {}

  const std::vector<OptionEntry<S>>& entries() const { return entries_; }

  // The settings with every option present in `options` applied over the defaults.
  // Throws Error(ZKP_ERR_INVALID_ARGUMENT) naming the owner, the key, the value and what
  // was expected. Does not call options.finish() (the factory does).
  S read(Options& options) const {
    S settings{};
    for (const OptionEntry<S>& e : entries_) {
      auto text = options.raw(e.name);
      if (text && !e.set(settings, *text)) throw options.bad_value(e.name, *text, e.expected);
    }
    return settings;
  }

  // "name=default  help (expected)" lines, the names and defaults in one column.
  std::string help() const {
    if (entries_.empty()) return "(no options)\n";
    const S defaults{};
    std::vector<std::string> heads;
    size_t width = 0;
    for (const OptionEntry<S>& e : entries_) {
      heads.push_back(e.name + "=" + e.show(defaults));
      width = std::max(width, heads.back().size());
    }
    std::string out;
    for (size_t i = 0; i < entries_.size(); ++i) {
      out += heads[i] + std::string(width + kGap - heads[i].size(), ' ') + entries_[i].help + " (" +
             entries_[i].expected + ")\n";
    }
    return out;
  }

 private:
  static constexpr size_t kGap = 2;  // spaces between the default and the help
  std::vector<OptionEntry<S>> entries_;
};

// An unsigned integer option in [min, max], in units of `unit` field units (an option
// in ms over a field in ns: unit 1'000'000). A value whose field value would not fit the
// field's type is not accepted.
template <class S, std::unsigned_integral T>
OptionEntry<S> integer(std::string name, T S::*field, uint64_t min, uint64_t max, std::string help,
                       uint64_t unit = 1) {
  auto show = [field, unit](const S& s) { return std::to_string(static_cast<uint64_t>(s.*field) / unit); };
  auto set = [field, min, max, unit](S& s, const std::string& text) {
    const auto v = parse_u64(text, min, max);
    if (!v || *v > std::numeric_limits<T>::max() / unit) return false;
    s.*field = static_cast<T>(*v * unit);
    return true;
  };
  return {std::move(name), std::move(help), integer_expected(min, max), show, set};
}

// A real number option in [min, max].
template <class S>
OptionEntry<S> number(std::string name, double S::*field, double min, double max, std::string help) {
  auto set = [field, min, max](S& s, const std::string& text) {
    const auto v = parse_double(text, min, max);
    if (v) s.*field = *v;
    return v.has_value();
  };
  return {std::move(name), std::move(help), double_expected(min, max),
          [field](const S& s) { return format_double(s.*field); }, set};
}

// A real number option in (min, max]: for a weight or a factor that zero would disable.
template <class S>
OptionEntry<S> number_above(std::string name, double S::*field, double min, double max, std::string help) {
  auto set = [field, min, max](S& s, const std::string& text) {
    const auto v = parse_double(text, min, max, /*above_min=*/true);
    if (v) s.*field = *v;
    return v.has_value();
  };
  return {std::move(name), std::move(help), double_expected(min, max, /*above_min=*/true),
          [field](const S& s) { return format_double(s.*field); }, set};
}

// A true/false option (also 1/0, yes/no, on/off).
template <class S>
OptionEntry<S> flag(std::string name, bool S::*field, std::string help) {
  auto set = [field](S& s, const std::string& text) {
    const auto v = parse_bool(text);
    if (v) s.*field = *v;
    return v.has_value();
  };
  return {std::move(name), std::move(help), kBoolExpected,
          [field](const S& s) { return std::string(s.*field ? "true" : "false"); }, set};
}

// One of a few spelled values, each naming a value of V (an enum): "g2=device|host".
template <class S, class V>
OptionEntry<S> choice(std::string name, V S::*field, std::vector<std::pair<std::string, V>> values, std::string help) {
  std::string expected;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i != 0) expected += i + 1 == values.size() ? " or " : ", ";
    expected += values[i].first;
  }
  auto show = [field, values](const S& s) {
    for (const auto& [text, v] : values) {
      if (s.*field == v) return text;
    }
    return std::string("?");
  };
  auto set = [field, values](S& s, const std::string& text) {
    for (const auto& [t, v] : values) {
      if (t == text) {
        s.*field = v;
        return true;
      }
    }
    return false;
  };
  return {std::move(name), std::move(help), std::move(expected), show, set};
}

// Free text (a path, a name); every value is accepted. Shown as written ("" when empty).
template <class S>
OptionEntry<S> text(std::string name, std::string S::*field, std::string help, std::string expected = "text") {
  auto set = [field](S& s, const std::string& value) {
    s.*field = value;
    return true;
  };
  return {std::move(name), std::move(help), std::move(expected), [field](const S& s) { return s.*field; }, set};
}

// The factory's options_help for plugin class T: its option_table()'s help, or its
// kOptionsHelp string. The text is made on first use and lives as long as the plugin.
template <class T>
const char* options_help() {
  if constexpr (requires { T::option_table().help(); }) {
    static const std::string text = T::option_table().help();
    return text.c_str();
  } else {
    return T::kOptionsHelp;
  }
}

}  // namespace zkp::sdk
