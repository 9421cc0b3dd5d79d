#include <zkpipe/host/config.hpp>

#include "ini_file.hpp"

#include <zkpipe/host/config_table.hpp>
#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <map>

namespace zkp::host {

using sdk::Error;

namespace {

[[noreturn]] void bad_value(const IniSetting& s, const std::string& expected) {
  throw Error(ZKP_ERR_INVALID_ARGUMENT, s.origin + ": " + s.key + " = '" + s.value +
                                            "' is invalid: expected " + expected);
}

// Replaces the value of `key` if present (later wins, and says where it was written),
// else appends.
void set_plugin_option(std::vector<PluginOption>& options, const std::string& key, const IniSetting& s) {
  for (PluginOption& o : options) {
    if (o.key == key) {
      o.value = s.value;
      o.origin = s.origin;
      return;
    }
  }
  options.push_back({key, s.value, s.origin});
}

std::string known_keys() {
  std::string out;
  for (const HostOption& o : host_options()) out += (out.empty() ? "" : ", ") + std::string(o.key);
  return out;
}

void apply(Config& config, const IniSetting& s) {
  for (const PluginSection& section : plugin_sections()) {
    const std::string prefix = std::string(section.name) + ".";
    if (s.key.starts_with(prefix) && s.key.size() > prefix.size()) {
      set_plugin_option(config.*section.options, s.key.substr(prefix.size()), s);
      return;
    }
  }
  const HostOption* option = find_host_option(s.key);
  if (option == nullptr) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT,
                s.origin + ": unknown key '" + s.key + "' (known keys: " + known_keys() +
                    "; plugin options go in [prover] or [pacer], or prover.KEY / pacer.KEY)");
  }
  if (!option->set(config, s.value)) bad_value(s, option->expected);
  const auto written = std::find_if(config.host_settings.begin(), config.host_settings.end(),
                                    [&](const PluginOption& o) { return o.key == s.key; });
  if (written != config.host_settings.end()) {
    *written = {s.key, s.value, s.origin};
  } else {
    config.host_settings.push_back({s.key, s.value, s.origin});
  }
}

// "section.key" -> value text of every key `config` was given, for changed_keys.
std::map<std::string, std::string> written_keys(const Config& config) {
  std::map<std::string, std::string> out;
  for (const PluginOption& o : config.host_settings) out[o.key] = o.value;
  for (const PluginOption& o : config.prover_options) out["prover." + o.key] = o.value;
  for (const PluginOption& o : config.pacer_options) out["pacer." + o.key] = o.value;
  for (const PluginOption& o : config.serve_options) out["serve." + o.key] = o.value;
  return out;
}

}  // namespace

std::vector<std::string> changed_keys(const Config& before, const Config& after) {
  const std::map<std::string, std::string> a = written_keys(before), b = written_keys(after);
  std::vector<std::string> out;
  for (const auto& [key, value] : a) {
    const auto it = b.find(key);
    if (it == b.end() || it->second != value) out.push_back(key);
  }
  for (const auto& [key, value] : b) {
    if (!a.contains(key)) out.push_back(key);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<zkp_option_t> to_c_options(const std::vector<PluginOption>& options) {
  std::vector<zkp_option_t> out;
  out.reserve(options.size());
  for (const PluginOption& o : options) out.push_back({o.key.c_str(), o.value.c_str()});
  return out;
}

const char* queue_mode_name(QueueMode mode) {
  return mode == QueueMode::shared ? "shared" : "per-device";
}

Config::Config() {
  for (const HostOption& o : host_options()) {
    if (!o.set(*this, o.default_value())) {
      throw Error(ZKP_ERR_INTERNAL, std::string("the default of ") + o.key + " ('" + o.default_value() +
                                        "') is not " + o.expected);
    }
  }
}

Config Config::load(const std::optional<std::filesystem::path>& file, std::span<const std::string> overrides) {
  Config config;
  if (file) {
    for (const IniSetting& s : read_ini_file(*file)) apply(config, s);
  }
  for (const std::string& text : overrides) apply(config, read_override(text));
  return config;
}

std::string with_option_origins(const std::string& message, const std::vector<PluginOption>& options,
                                const char* section) {
  std::string where;
  for (const PluginOption& o : options) {
    if (o.origin.empty() || message.find("'" + o.key + "'") == std::string::npos) continue;
    where += (where.empty() ? "" : ", ") + std::string(section) + "." + o.key + " at " + o.origin;
  }
  return where.empty() ? message : message + " (" + where + ")";
}

}  // namespace zkp::host
