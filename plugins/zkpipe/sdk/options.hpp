// Plugin options: the key=value pairs from the host config's [prover] or [pacer]
// section. A plugin reads each option it knows with a typed getter, then calls
// finish(), which rejects any key it did not read: a typo in a config file is an error
// that names the plugin and the key, never a silently ignored setting.
#pragma once

#include <zkpipe/zkp_common.h>
#include <zkpipe/sdk/error.hpp>

#include <charconv>
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
    uint64_t out = 0;
    auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc() || end != v->data() + v->size() || out < min || out > max) {
      throw bad_value(key, *v, "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return out;
  }

  // A real number in [min, max].
  double get_double(const std::string& key, double fallback, double min, double max) {
    auto v = raw(key);
    if (!v) return fallback;
    size_t used = 0;
    double out = 0;
    try {
      out = std::stod(*v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != v->size() || !(out >= min && out <= max)) {
      throw bad_value(key, *v, "a number in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return out;
  }

  bool get_bool(const std::string& key, bool fallback) {
    auto v = raw(key);
    if (!v) return fallback;
    if (*v == "true" || *v == "1" || *v == "yes" || *v == "on") return true;
    if (*v == "false" || *v == "0" || *v == "no" || *v == "off") return false;
    throw bad_value(key, *v, "true or false");
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
  Error bad_value(const std::string& key, const std::string& value, const std::string& want) const {
    return Error(ZKP_ERR_INVALID_ARGUMENT,
                 owner_ + ": option '" + key + "' = '" + value + "' is not " + want);
  }

  std::string owner_;
  std::map<std::string, std::string> values_;
  std::set<std::string> read_;
};

}  // namespace zkp::sdk
