// Plugin options: the key=value pairs from the host config's [prover] or [pacer]
// section. A plugin reads each option it knows with a typed getter, then calls
// finish(), which rejects any key it did not read: a typo in a config file is an error
// that names the plugin and the key, never a silently ignored setting. A plugin with
// more than a couple of options declares them in an OptionTable (option_table.hpp),
// which reads them through raw() and writes the help text from the same entries.
#pragma once

#include <zkpipe/zkp_common.h>
#include <zkpipe/sdk/error.hpp>
#include <zkpipe/sdk/parse.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace zkp::sdk {

class Options {
 public:
  Options(std::string owner, const zkp_option_t* options, size_t count) : owner_(std::move(owner)) {
    for (size_t i = 0; i < count; ++i) {
      if (options[i].key == nullptr || options[i].value == nullptr) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT, owner_ + ": option " + std::to_string(i) + " is NULL");
      }
      values_[options[i].key] = options[i].value;
    }
  }

  std::optional<std::string> raw(const std::string& key) {
    read_.insert(key);
    auto it = values_.find(key);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }

  std::string get_string(const std::string& key, const std::string& fallback) {
    return raw(key).value_or(fallback);
  }

  // An unsigned integer in [min, max].
  uint64_t get_u64(const std::string& key, uint64_t fallback, uint64_t min = 0,
                   uint64_t max = UINT64_MAX) {
    auto v = raw(key);
    if (!v) return fallback;
    if (auto out = parse_u64(*v, min, max)) return *out;
    throw bad_value(key, *v, integer_expected(min, max));
  }

  // A real number in [min, max].
  double get_double(const std::string& key, double fallback, double min, double max) {
    auto v = raw(key);
    if (!v) return fallback;
    if (auto out = parse_double(*v, min, max)) return *out;
    throw bad_value(key, *v, double_expected(min, max));
  }

  bool get_bool(const std::string& key, bool fallback) {
    auto v = raw(key);
    if (!v) return fallback;
    if (auto out = parse_bool(*v)) return *out;
    throw bad_value(key, *v, kBoolExpected);
  }

  // The error for `key` = `value`, which is not `want` (what the key accepts).
  Error bad_value(const std::string& key, const std::string& value, const std::string& want) const {
    return Error(ZKP_ERR_INVALID_ARGUMENT,
                 owner_ + ": option '" + key + "' = '" + value + "' is not " + want);
  }

  // Fails on the first option no getter asked for.
  void finish() const {
    for (const auto& [key, value] : values_) {
      if (!read_.contains(key)) {
        std::string known;
        for (const auto& k : read_) known += (known.empty() ? "" : ", ") + k;
        throw Error(ZKP_ERR_INVALID_ARGUMENT,
                    owner_ + ": unknown option '" + key + "' (known: " + known + ")");
      }
    }
  }

  const std::string& owner() const { return owner_; }

 private:
  std::string owner_;
  std::map<std::string, std::string> values_;
  std::set<std::string> read_;
};

}  // namespace zkp::sdk
