#include "options.hpp"

#include "command.hpp"

#include <zkpipe/sdk/error.hpp>

#include <ostream>
#include <sstream>

namespace zkp::cli {

namespace po = boost::program_options;

namespace {

po::options_description common_options() {
  po::options_description d("Common options");
  d.add_options()("help,h", "show this help")
      ("config,c", po::value<std::string>()->value_name("FILE"), "INI configuration file")
      ("override", po::value<std::vector<std::string>>()->value_name("KEY=VALUE"),
       "configuration overrides (positional: key=value ...), applied after the file");
  return d;
}

}  // namespace

std::chrono::milliseconds duration_flag(const std::string& flag, const std::string& text, services::DurationUnit bare) {
  std::string why;
  const std::optional<std::chrono::milliseconds> d = services::parse_duration(text, bare, &why);
  if (!d) throw UsageError(flag + " '" + text + "' " + why);
  return *d;
}

ParsedArgs parse_command_line(const std::vector<std::string>& args, po::options_description specific,
                              const std::vector<std::string>& leading_positionals) {
  specific.add(common_options());
  po::positional_options_description positional;
  for (const std::string& name : leading_positionals) positional.add(name.c_str(), 1);
  positional.add("override", -1);
  ParsedArgs parsed;
  try {
    po::store(po::command_line_parser(args).options(specific).positional(positional).run(), parsed.values);
    po::notify(parsed.values);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  parsed.help = parsed.values.count("help") != 0;
  if (parsed.values.count("config")) parsed.config_file = parsed.values["config"].as<std::string>();
  if (parsed.values.count("override")) parsed.overrides = parsed.values["override"].as<std::vector<std::string>>();
  return parsed;
}

void print_command_help(std::ostream& out, const char* usage, const po::options_description& specific) {
  out << "Usage: " << usage << "\n\n" << specific << "\n" << common_options() << "\n";
  host::print_config_reference(out);
}

void require_key_value_overrides(const ParsedArgs& parsed) {
  for (const std::string& o : parsed.overrides) {
    if (o.find('=') == std::string::npos) throw UsageError("unexpected argument '" + o + "' (overrides are key=value)");
  }
}

host::Config load_config(const ParsedArgs& parsed) {
  try {
    std::optional<std::filesystem::path> file;
    if (parsed.config_file) file = *parsed.config_file;
    return host::Config::load(file, parsed.overrides);
  } catch (const sdk::Error& e) {
    throw UsageError(e.what());
  }
}

std::vector<std::string> plugin_search_path(const ParsedArgs& parsed) {
  std::vector<std::string> path;
  if (parsed.values.count("plugin-path")) {
    std::istringstream dirs(parsed.values["plugin-path"].as<std::string>());
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (!dir.empty()) path.push_back(dir);
    }
  }
  const host::Config config = load_config(parsed);
  path.insert(path.end(), config.plugin_path.begin(), config.plugin_path.end());
  return path;
}

}  // namespace zkp::cli
