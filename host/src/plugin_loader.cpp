#include <zkpipe/host/plugin_loader.hpp>

#include <zkpipe/sdk/error.hpp>

#include <boost/dll/runtime_symbol_info.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string_view>

namespace zkp::host {

using sdk::Error;
namespace fs = std::filesystem;

namespace {

constexpr const char* kEnvPath = "ZKPIPE_PLUGIN_PATH";
constexpr const char* kLibPrefix = "lib";
constexpr const char* kLibSuffix = ".so";

// Whether a file in a search folder is named like a plugin of either kind (plugin_file_name).
// Nothing else there is opened: dlopen runs a library's constructors before any check, so
// listing "every lib*.so" would run the code of any library that happens to share the folder.
bool named_like_a_plugin(const std::string& name) {
  for (const PluginKind kind : {PluginKind::prover, PluginKind::pacer}) {
    const std::string prefix = std::string(kLibPrefix) + "zkp_" + plugin_kind_name(kind) + "_";
    if (name.size() > prefix.size() + std::string_view(kLibSuffix).size() && name.starts_with(prefix) &&
        name.ends_with(kLibSuffix)) {
      return true;
    }
  }
  return false;
}

void append_colon_separated(std::vector<fs::path>& out, const char* text) {
  if (text == nullptr) return;
  std::string rest = text;
  size_t start = 0;
  while (start <= rest.size()) {
    const size_t colon = rest.find(':', start);
    const size_t end = colon == std::string::npos ? rest.size() : colon;
    if (end > start) out.emplace_back(rest.substr(start, end - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
}

// The folder of the binary this code is linked into: libzkpipe.so for C/Rust/Go
// callers, the zkpipe program or a test for the static core.
fs::path own_binary() {
  boost::dll::fs::error_code ec;
  const fs::path self = boost::dll::this_line_location(ec);
  return ec ? fs::path() : self;
}

std::string join(const std::vector<fs::path>& folders) {
  std::string out;
  for (const fs::path& f : folders) out += (out.empty() ? "" : ", ") + f.string();
  return out.empty() ? "(none)" : out;
}

}  // namespace

const char* plugin_kind_name(PluginKind kind) {
  return kind == PluginKind::prover ? "prover" : "pacer";
}

std::string plugin_file_name(PluginKind kind, const std::string& name) {
  return std::string(kLibPrefix) + "zkp_" + plugin_kind_name(kind) + "_" + name + kLibSuffix;
}

bool is_explicit_plugin_path(const std::string& name_or_path) {
  return name_or_path.find('/') != std::string::npos || name_or_path.ends_with(kLibSuffix);
}

PluginLoader::PluginLoader(const std::vector<std::string>& configured_path) {
  std::vector<fs::path> folders(configured_path.begin(), configured_path.end());
  append_colon_separated(folders, std::getenv(kEnvPath));
  if (const fs::path own = own_binary().parent_path(); !own.empty()) {
    folders.push_back(own);
    folders.push_back(own / ".." / "lib" / "zkpipe");
    folders.push_back(own / ".." / "lib");
  }
  std::set<fs::path> seen;
  for (const fs::path& folder : folders) {
    std::error_code ec;
    fs::path normal = fs::weakly_canonical(folder, ec);
    if (ec) normal = folder.lexically_normal();
    if (seen.insert(normal).second) search_path_.push_back(normal);
  }
}

fs::path PluginLoader::resolve(PluginKind kind, const std::string& name_or_path) const {
  if (is_explicit_plugin_path(name_or_path)) {
    std::error_code ec;
    if (!fs::exists(name_or_path, ec)) {
      throw Error(ZKP_ERR_NOT_FOUND, std::string(plugin_kind_name(kind)) + " plugin file '" +
                                         name_or_path + "' does not exist");
    }
    return name_or_path;
  }
  const std::string file = plugin_file_name(kind, name_or_path);
  for (const fs::path& folder : search_path_) {
    std::error_code ec;
    if (fs::exists(folder / file, ec)) return folder / file;
  }
  throw Error(ZKP_ERR_NOT_FOUND, std::string(plugin_kind_name(kind)) + " plugin '" + name_or_path +
                                     "' not found: no " + file + " in " + join(search_path_) +
                                     " (set plugin_path or " + kEnvPath + ")");
}

std::shared_ptr<PluginLibrary> PluginLoader::load(PluginKind kind, const std::string& name_or_path) const {
  return PluginLibrary::open(resolve(kind, name_or_path));
}

std::vector<fs::path> PluginLoader::candidates() const {
  std::vector<fs::path> out;
  std::set<std::string> names;
  std::error_code own_ec;
  const fs::path own = fs::weakly_canonical(own_binary(), own_ec);
  for (const fs::path& folder : search_path_) {
    std::error_code ec;
    std::vector<fs::path> here;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      std::error_code same_ec;
      // (a FIFO named like a plugin would block dlopen: regular files, or links to them, only)
      if (!named_like_a_plugin(name) || !it->is_regular_file(same_ec)) continue;
      // The host itself (the program, should it be named like a plugin) is not a plugin.
      if (fs::equivalent(it->path(), own, same_ec)) continue;
      here.push_back(it->path());
    }
    std::sort(here.begin(), here.end());
    for (fs::path& p : here) {
      if (names.insert(p.filename().string()).second) out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace zkp::host
