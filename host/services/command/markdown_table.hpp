// The README's option tables as markdown, in the form `zkpipe --help --markdown` gives the
// host's (host/src/config_reference.cpp): "| NAME | default | meaning |", an empty cell as
// "| |". `zkpipe serve --help --markdown` and `zkpipe worker --help --markdown` print theirs
// with it; scripts/update_readme_config.sh pastes them into README.md.
#pragma once

#include <string>
#include <vector>

namespace zkp::cli {

struct MarkdownRow {
  std::string name;          // already formatted: "`serve.socket`"
  std::string default_text;  // already formatted; "": no default
  std::string meaning;
};

// Code spans: `text`.
inline std::string markdown_code(const std::string& text) { return std::string(1, '`').append(text).append(1, '`'); }

// A markdown table cell: '|' would end it.
inline std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// (Built by append: GCC 12 reports a false -Wrestrict on "literal" + std::string.)
inline std::string markdown_table(const std::string& first_column, const std::vector<MarkdownRow>& rows) {
  std::string out = "| ";
  out.append(first_column).append(" | default | meaning |\n| --- | --- | --- |\n");
  for (const MarkdownRow& r : rows) {
    out.append("|");
    for (const std::string* c : {&r.name, &r.default_text, &r.meaning}) {
      if (!c->empty()) out.append(" ").append(markdown_cell(*c));
      out.append(" |");
    }
    out.append("\n");
  }
  return out;
}

}  // namespace zkp::cli
