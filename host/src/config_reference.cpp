// host_options() as people read it: `zkpipe --help`, and the README's table.
#include <zkpipe/host/config.hpp>

#include <zkpipe/host/config_table.hpp>

#include <cstring>
#include <ostream>
#include <sstream>

namespace zkp::host {

namespace {

// `meaning` in lines of at most kWidth characters, each after kIndent.
void print_wrapped(std::ostream& out, const std::string& meaning) {
  constexpr size_t kWidth = 78;
  constexpr const char* kIndent = "      ";
  std::string line = kIndent;
  std::istringstream words(meaning);
  for (std::string word; words >> word;) {
    if (line.size() + word.size() + 1 > kWidth && line.size() > std::strlen(kIndent)) {
      out << line << "\n";
      line = kIndent;
    }
    line += (line.size() > std::strlen(kIndent) ? " " : "") + word;
  }
  out << line << "\n";
}

// A markdown table cell: '|' would end it.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// Code spans: `text`.
std::string code(const std::string& text) { return std::string(1, '`').append(text).append(1, '`'); }

// (Built by append: GCC 12 reports a false -Wrestrict on "literal" + std::string here.)
std::string row(const std::string& key, const std::string& default_text, const std::string& meaning) {
  std::string out = "|";
  for (const std::string* c : {&key, &default_text, &meaning}) {
    if (!c->empty()) out.append(" ").append(cell(*c));
    out.append(" |");
  }
  return out.append("\n");
}

}  // namespace

void print_config_reference(std::ostream& out) {
  out << "Configuration keys (INI file, or key=value arguments applied after it; later wins). In the file,\n"
         "'#' starts a comment at the start of a line or after a space or tab (a value may hold '#'),\n"
         "and a key set twice or a NUL byte is an error naming file:line:\n";
  for (const HostOption& o : host_options()) {
    out << "  " << o.key;
    if (o.machine != nullptr) {
      out << " = " << o.machine->shown() << " (" << o.machine->words << ")";
    } else if (*o.default_text != '\0') {
      out << " = " << o.default_text;
    }
    out << "\n";
    print_wrapped(out, o.meaning);
  }
  for (const PluginSection& s : plugin_sections()) {
    out << "  " << s.name << ".KEY\n";
    print_wrapped(out, s.meaning);
  }
}

std::string config_markdown_table() {
  std::string out = "| key | default | meaning |\n| --- | --- | --- |\n";
  for (const HostOption& o : host_options()) {
    const std::string default_text = o.machine != nullptr       ? o.machine->words
                                     : *o.default_text == '\0' ? ""
                                                               : code(o.default_text);
    out += row(code(o.key), default_text, o.meaning);
  }
  for (const PluginSection& s : plugin_sections()) {
    const std::string name = s.name;
    out += row(code("[" + name + "]").append(" / ").append(code(name + ".KEY")), "", s.meaning);
  }
  return out;
}

}  // namespace zkp::host
