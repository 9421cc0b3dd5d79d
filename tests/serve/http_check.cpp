// zkpipe_serve_http_check: checks `zkpipe serve`'s HTTP endpoint (serve.http), for
// tests/serve/http.sh. Every mode prints one line per finding and exits 0 only when all held.
//
//   http_check HOST:PORT metrics [EXPECT ...]   GET /metrics, parsed as Prometheus text
//       (0.0.4: HELP/TYPE once per family and before its samples, a family's samples together,
//       names, labels, escapes and values well formed, histograms cumulative with +Inf equal to
//       _count, label values that name one of a set snake_case); each EXPECT is
//       NAME{LABELS}=VALUE (that sample) or sum(NAME)=VALUE (over every label set), compared
//       exactly.
//   http_check HOST:PORT status [EXPECT ...]    GET /status, parsed as JSON (protobuf's parser);
//       each EXPECT is a.b.c=VALUE (a number, true/false or a string), a.b#=N (an array of N),
//       or a.b? (present); a number in the path indexes an array (keys.0.path).
//   http_check HOST:PORT raw REQUEST_HEAD CODE  sends REQUEST_HEAD (\n becomes CRLF) and expects
//       the answer's status CODE.
//   http_check HOST:PORT dashboard DOM_FILE [PATH ...]  DOM_FILE is the dashboard (GET /) as a
//       browser left it (chromium --dump-dom): its <body> says data-state="live"; every element
//       with data-k="P" shows /status's P, fetched now (a number as the page formats it, within
//       its rounding, units ms, s, %, /s, MiB; a string exactly; P# an array's length); and
//       each PATH is among them (the page shows that figure).
//   http_check - jsonlines FILE [EXPECT ...]   FILE is a log of serve.log_format = json: every
//       line a JSON object with time, level, logger and message; each EXPECT is FIELD (some line
//       has it, a number: job, partition, gpu_index) or ~TEXT (some line's message contains TEXT).
//
// The parser is the test's own, so the test does not depend on promtool.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <map>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
  if (!ok) ++failures;
}

// --- HTTP: one request, the whole answer (the server closes the connection).
struct Answer {
  int status = 0;
  std::string head;
  std::string body;
};

std::optional<Answer> http_exchange(const std::string& address, const std::string& request) {
  const size_t colon = address.rfind(':');
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(std::stoi(address.substr(colon + 1))));
  if (::inet_pton(AF_INET, address.substr(0, colon).c_str(), &addr.sin_addr) != 1) return std::nullopt;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return std::nullopt;
  timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  size_t off = 0;
  while (off < request.size()) {
    const ssize_t n = ::send(fd, request.data() + off, request.size() - off, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may answer (431) before it has read everything
    off += static_cast<size_t>(n);
  }
  std::string all;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof(buf), 0)) > 0;) all.append(buf, static_cast<size_t>(n));
  ::close(fd);
  const size_t end = all.find("\r\n\r\n");
  if (all.compare(0, 9, "HTTP/1.1 ") != 0 || end == std::string::npos) return std::nullopt;
  Answer a;
  a.status = std::atoi(all.c_str() + 9);
  a.head = all.substr(0, end);
  a.body = all.substr(end + 4);
  return a;
}

std::optional<Answer> get(const std::string& address, const std::string& path) {
  return http_exchange(address, "GET " + path + " HTTP/1.1\r\nHost: " + address + "\r\n\r\n");
}

// --- Prometheus text format 0.0.4.
struct Sample {
  std::string name;
  std::string labels;  // canonical: k="v",... in the order written
  std::map<std::string, std::string> label_map;
  double value = 0;
};

bool metric_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_' || s[0] == ':')) return false;
  for (const char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':')) return false;
  }
  return true;
}

bool label_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (const char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

std::optional<double> value_of(const std::string& s) {
  if (s == "+Inf") return INFINITY;
  if (s == "-Inf") return -INFINITY;
  if (s == "NaN") return NAN;
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

// One sample line, or a message saying what is wrong with it.
std::optional<Sample> parse_sample(const std::string& line, std::string& error) {
  Sample s;
  size_t i = 0;
  while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
  s.name = line.substr(0, i);
  if (!metric_name(s.name)) return error = "bad metric name '" + s.name + "'", std::nullopt;
  if (i < line.size() && line[i] == '{') {
    ++i;
    while (i < line.size() && line[i] != '}') {
      const size_t eq = line.find('=', i);
      if (eq == std::string::npos) return error = "a label without '='", std::nullopt;
      const std::string key = line.substr(i, eq - i);
      if (!label_name(key)) return error = "bad label name '" + key + "'", std::nullopt;
      if (eq + 1 >= line.size() || line[eq + 1] != '"') return error = "label " + key + " not quoted", std::nullopt;
      std::string value;
      size_t j = eq + 2;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\') {
          if (j + 1 >= line.size()) return error = "a dangling escape", std::nullopt;
          const char e = line[++j];
          if (e == 'n') value += '\n';
          else if (e == '\\' || e == '"') value += e;
          else return error = std::string("a bad escape \\") + e, std::nullopt;
        } else {
          value += line[j];
        }
      }
      if (j >= line.size()) return error = "an unterminated label value", std::nullopt;
      if (s.label_map.count(key) != 0) return error = "label " + key + " twice", std::nullopt;
      s.label_map[key] = value;
      if (!s.labels.empty()) s.labels += ',';
      s.labels += key;
      s.labels += "=\"";
      s.labels += line.substr(eq + 2, j - eq - 2);
      s.labels += '"';
      i = j + 1;
      if (i < line.size() && line[i] == ',') ++i;
    }
    if (i >= line.size()) return error = "labels not closed", std::nullopt;
    ++i;
  }
  if (i >= line.size() || line[i] != ' ') return error = "no value", std::nullopt;
  std::istringstream rest(line.substr(i + 1));
  std::string value, timestamp, extra;
  rest >> value >> timestamp >> extra;
  const auto v = value_of(value);
  if (!v) return error = "bad value '" + value + "'", std::nullopt;
  if (!extra.empty()) return error = "text after the timestamp", std::nullopt;
  s.value = *v;
  return s;
}

// The family a sample belongs to: histograms own their _bucket/_sum/_count samples.
std::string family_of(const std::string& name, const std::map<std::string, std::string>& types) {
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const size_t n = std::strlen(suffix);
    if (name.size() > n && name.compare(name.size() - n, n, suffix) == 0) {
      const std::string base = name.substr(0, name.size() - n);
      const auto t = types.find(base);
      if (t != types.end() && t->second == "histogram") return base;
    }
  }
  return name;
}

std::vector<Sample> parse_exposition(const std::string& text) {
  std::vector<Sample> samples;
  std::map<std::string, std::string> types;
  std::set<std::string> helped, closed;
  std::string current;
  std::istringstream in(text);
  int line_no = 0;
  int bad = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const std::string where = "line " + std::to_string(line_no) + ": ";
    if (line.empty()) continue;
    if (line[0] == '#') {
      std::istringstream words(line);
      std::string hash, kind, name, rest;
      words >> hash >> kind >> name;
      std::getline(words, rest);
      if (kind == "HELP" || kind == "TYPE") {
        if (!metric_name(name)) { check(false, where + "bad name in # " + kind); ++bad; continue; }
        if (name != current) {
          if (closed.count(name) != 0) { check(false, where + name + "'s lines are not together"); ++bad; }
          if (!current.empty()) closed.insert(current);
          current = name;
        }
        if (kind == "HELP" && helped.count(name) != 0) { check(false, where + "# HELP " + name + " twice"); ++bad; }
        if (kind == "HELP") helped.insert(name);
        if (kind == "TYPE") {
          const std::string type = rest.empty() ? "" : rest.substr(1);
          if (type != "counter" && type != "gauge" && type != "histogram" && type != "summary" && type != "untyped") {
            check(false, where + "unknown type '" + type + "'"); ++bad;
          }
          if (types.count(name) != 0) { check(false, where + "# TYPE " + name + " twice"); ++bad; }
          types[name] = type;
        }
      }
      continue;  // other comments are allowed
    }
    std::string error;
    auto s = parse_sample(line, error);
    if (!s) { check(false, where + error + ": " + line); ++bad; continue; }
    const std::string family = family_of(s->name, types);
    if (family != current) {
      if (closed.count(family) != 0 || types.count(family) != 0) {
        check(false, where + family + "'s samples are not together with its # TYPE"); ++bad;
      }
      if (!current.empty()) closed.insert(current);
      current = family;
    }
    if (types.count(family) == 0) { check(false, where + s->name + " has no # TYPE before it"); ++bad; }
    if (types[family] == "counter" && s->value < 0) { check(false, where + "a negative counter"); ++bad; }
    samples.push_back(*s);
  }
  // Histograms: per label set (without le), buckets cumulative, +Inf == _count.
  std::map<std::string, std::vector<std::pair<double, double>>> buckets;  // family|labels -> (le, count)
  std::map<std::string, double> counts;
  for (const Sample& s : samples) {
    const std::string family = family_of(s.name, types);
    if (types[family] != "histogram") continue;
    std::string rest;
    for (const auto& [k, v] : s.label_map) if (k != "le") rest += k + "=" + v + ",";
    const std::string id = family + "{" + rest + "}";
    if (s.name == family + "_bucket") {
      const auto le = s.label_map.count("le") ? value_of(s.label_map.at("le")) : std::nullopt;
      if (!le) { check(false, id + ": a bucket without a numeric le"); ++bad; continue; }
      buckets[id].emplace_back(le.value_or(0), s.value);  // value_or: GCC 12 sees *le as maybe uninitialized
    } else if (s.name == family + "_count") {
      counts[id] = s.value;
    }
  }
  for (const auto& [id, b] : buckets) {
    bool ordered = true;
    for (size_t i = 1; i < b.size(); ++i) ordered = ordered && b[i].first > b[i - 1].first && b[i].second >= b[i - 1].second;
    if (!ordered || b.empty() || !std::isinf(b.back().first) || counts.count(id) == 0 || counts[id] != b.back().second) {
      check(false, id + ": buckets not cumulative in le order, or +Inf != _count"); ++bad;
    }
  }
  // Label values that name one of a fixed set (status, reason, stage, gpu) are snake_case, so
  // a query or an alert never quotes a space (issue 39: status="bad input"); the free text of
  // the *_info families (a version, the pacer's status line) and le are not such names.
  const std::regex snake("[a-z0-9_]+");
  for (const Sample& s : samples) {
    if (s.name == "zkpipe_build_info" || s.name == "zkpipe_pacer_info") continue;
    for (const auto& [k, v] : s.label_map) {
      if (k != "le" && !std::regex_match(v, snake)) {
        check(false, s.name + ": label " + k + "=\"" + v + "\" is not snake_case"); ++bad;
      }
    }
  }
  check(bad == 0, "/metrics parses as Prometheus text: " + std::to_string(samples.size()) + " samples in " +
                      std::to_string(types.size()) + " families, " + std::to_string(buckets.size()) + " histogram(s)");
  return samples;
}

void expect_metric(const std::vector<Sample>& samples, const std::string& expect) {
  const size_t eq = expect.rfind('=');
  const std::string what = expect.substr(0, eq);
  const double want = std::stod(expect.substr(eq + 1));
  std::optional<double> got;
  if (what.rfind("sum(", 0) == 0 && what.back() == ')') {
    const std::string name = what.substr(4, what.size() - 5);
    for (const Sample& s : samples) if (s.name == name) got = got.value_or(0) + s.value;
  } else {
    for (const Sample& s : samples) {
      if (s.labels.empty() ? s.name == what : s.name + "{" + s.labels + "}" == what) got = s.value;
    }
  }
  std::ostringstream text;
  text << what << " = " << (got ? std::to_string(*got) : std::string("(absent)")) << ", expected " << want;
  check(got && *got == want, text.str());
}

// --- JSON.
const google::protobuf::Value* lookup(const google::protobuf::Value& root, const std::string& path) {
  const google::protobuf::Value* v = &root;
  std::istringstream parts(path);
  for (std::string part; std::getline(parts, part, '.');) {
    if (v->kind_case() == google::protobuf::Value::kListValue && !part.empty() &&
        part.find_first_not_of("0123456789") == std::string::npos) {  // an index
      const int i = std::stoi(part);
      if (i >= v->list_value().values_size()) return nullptr;
      v = &v->list_value().values(i);
      continue;
    }
    if (v->kind_case() != google::protobuf::Value::kStructValue) return nullptr;
    const auto& fields = v->struct_value().fields();
    const auto it = fields.find(part);
    if (it == fields.end()) return nullptr;
    v = &it->second;
  }
  return v;
}

std::string show(const google::protobuf::Value& v) {
  switch (v.kind_case()) {
    case google::protobuf::Value::kNumberValue: {
      const double n = v.number_value();
      if (n == std::floor(n) && std::fabs(n) < 9e15) return std::to_string(static_cast<long long>(n));
      std::ostringstream s;
      s.precision(17);
      s << n;
      return s.str();
    }
    case google::protobuf::Value::kBoolValue: return v.bool_value() ? "true" : "false";
    case google::protobuf::Value::kStringValue: return v.string_value();
    case google::protobuf::Value::kListValue: return "[" + std::to_string(v.list_value().values_size()) + " items]";
    default: return "(object)";
  }
}

void expect_json(const google::protobuf::Value& root, const std::string& expect) {
  if (expect.back() == '?') {
    const std::string path = expect.substr(0, expect.size() - 1);
    check(lookup(root, path) != nullptr, "/status has " + path);
    return;
  }
  const size_t eq = expect.find('=');
  std::string path = expect.substr(0, eq);
  const std::string want = expect.substr(eq + 1);
  const bool count = path.back() == '#';
  if (count) path.pop_back();
  const google::protobuf::Value* v = lookup(root, path);
  if (v == nullptr) return check(false, "/status " + path + " is absent (expected " + want + ")");
  std::string got = show(*v);
  if (count) got = v->kind_case() == google::protobuf::Value::kListValue ? std::to_string(v->list_value().values_size()) : "(no array)";
  check(got == want, "/status " + path + (count ? " has " : " = ") + got + ", expected " + want);
}

// --- The dashboard as a browser rendered it.
std::string unescape_html(const std::string& s) {
  static const std::pair<const char*, const char*> kEntities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&nbsp;", "\xc2\xa0"}, {"&amp;", "&"}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool replaced = false;
    for (const auto& [entity, text] : kEntities) {
      const size_t n = std::strlen(entity);
      if (s.compare(i, n, entity) == 0) {
        out += text;
        i += n;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

// "12.34 ms" -> 0.01234, with half a unit of its last digit as the tolerance.
std::optional<std::pair<double, double>> shown_number(const std::string& text) {
  char* end = nullptr;
  const double n = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return std::nullopt;
  const std::string digits(text.c_str(), static_cast<size_t>(end - text.c_str()));
  const size_t dot = digits.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(digits.size() - dot - 1);
  std::string unit(end);
  unit.erase(0, unit.find_first_not_of(' '));
  double scale = 1;
  if (unit == "ms") scale = 1e-3;
  else if (unit == "%") scale = 1e-2;
  else if (unit == "MiB") scale = 1048576;
  else if (!unit.empty() && unit != "s" && unit != "/s") return std::nullopt;
  return std::make_pair(n * scale, 0.5 * std::pow(10.0, -decimals) * scale * (1 + 1e-9));
}

int check_dashboard(const std::string& address, const std::string& dom_file, const std::vector<std::string>& required) {
  std::ifstream f(dom_file);
  std::ostringstream text;
  text << f.rdbuf();
  const std::string dom = text.str();
  check(!dom.empty(), dom_file + ": " + std::to_string(dom.size()) + " bytes of DOM");
  std::smatch body;
  const bool live = std::regex_search(dom, body, std::regex("<body[^>]*data-state=\"live\"[^>]*data-updates=\"([0-9]+)\""));
  check(live, live ? "the page read /status and rendered it (" + body[1].str() + " update(s))" : "the page's <body> is not data-state=\"live\"");
  const auto a = get(address, "/status");
  google::protobuf::Value root;
  if (!a || a->status != 200 || !google::protobuf::util::JsonStringToMessage(a->body, &root).ok()) {
    check(false, "GET /status for the comparison");
    return 1;
  }
  std::set<std::string> shown;
  int matched = 0;
  const std::regex element("<[a-z0-9]+\\b[^>]*\\bdata-k=\"([^\"]*)\"[^>]*>([^<]*)<");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), element); it != std::sregex_iterator(); ++it) {
    std::string path = (*it)[1].str();
    const std::string text_shown = unescape_html((*it)[2].str());
    shown.insert(path);
    const bool count = path.back() == '#';
    if (count) path.pop_back();
    const google::protobuf::Value* v = lookup(root, path);
    const std::string what = "the page's " + (*it)[1].str() + " '" + text_shown + "'";
    if (v == nullptr) {
      check(false, what + ": /status has no " + path);
      continue;
    }
    bool ok = false;
    std::string want;
    if (count || v->kind_case() == google::protobuf::Value::kNumberValue) {
      const double expected = count ? (v->kind_case() == google::protobuf::Value::kListValue ? v->list_value().values_size() : -1)
                                    : v->number_value();
      const auto got = shown_number(text_shown);
      ok = got && std::fabs(got->first - expected) <= got->second;
      // A figure over the last 10 s may have fallen since the page read /status (its proofs
      // leave the window; the test runs none meanwhile): shown at or above /status's now.
      if (!ok && got && path.find("10s") != std::string::npos) ok = got->first + got->second >= expected;
      std::ostringstream s;
      s.precision(9);
      s << expected;
      want = s.str();
    } else {
      want = show(*v);
      ok = text_shown == want;
    }
    if (ok) ++matched;
    else check(false, what + " is not /status's " + want);
  }
  check(matched > 0 && matched == static_cast<int>(std::distance(std::sregex_iterator(dom.begin(), dom.end(), element),
                                                                  std::sregex_iterator())),
        std::to_string(matched) + " figures on the page match /status");
  for (const std::string& p : required) check(shown.count(p) != 0, "the page shows " + p);
  return failures == 0 ? 0 : 1;
}

// serve.log_format = json: every line of `file` is one JSON object with the fields
// log_format.hpp promises, and each EXPECT holds on some line (FIELD: a number field, e.g.
// job; ~TEXT: a message containing TEXT).
int check_json_lines(const std::string& file, const std::vector<std::string>& expects) {
  std::ifstream f(file);
  const std::regex time("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z");
  const std::set<std::string> levels = {"trace", "debug", "info", "warn", "error"};
  std::vector<google::protobuf::Struct> lines;
  int n = 0, bad = 0;
  for (std::string line; std::getline(f, line);) {
    ++n;
    google::protobuf::Value v;
    const bool parsed = google::protobuf::util::JsonStringToMessage(line, &v).ok() &&
                        v.kind_case() == google::protobuf::Value::kStructValue;
    const auto& fields = v.struct_value().fields();
    auto str = [&](const char* k) -> std::optional<std::string> {
      const auto it = fields.find(k);
      if (it == fields.end() || it->second.kind_case() != google::protobuf::Value::kStringValue) return std::nullopt;
      return it->second.string_value();
    };
    const auto t = str("time"), level = str("level"), logger = str("logger"), message = str("message");
    if (!parsed || !t || !std::regex_match(*t, time) || !level || levels.count(*level) == 0 || logger != "zkpipe" || !message) {
      if (++bad <= 5) std::cout << "     line " << n << ": " << line << "\n";
      continue;
    }
    lines.push_back(v.struct_value());
  }
  check(n > 0 && bad == 0, file + ": " + std::to_string(n - bad) + " of " + std::to_string(n) +
                               " lines are JSON objects with time (RFC 3339, UTC), level, logger and message");
  for (const std::string& e : expects) {
    bool found = false;
    for (const auto& l : lines) {
      const auto& fields = l.fields();
      if (e[0] == '~') {
        found = found || fields.at("message").string_value().find(e.substr(1)) != std::string::npos;
      } else {
        const auto it = fields.find(e);
        found = found || (it != fields.end() && it->second.kind_case() == google::protobuf::Value::kNumberValue);
      }
    }
    check(found, e[0] == '~' ? "a line's message has '" + e.substr(1) + "'" : "a line has the number field " + e);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: zkpipe_serve_http_check HOST:PORT metrics|status|raw|dashboard ...  |  - jsonlines FILE ...\n";
    return 2;
  }
  const std::string address = argv[1];
  const std::string mode = argv[2];
  if (mode == "raw" && argc == 5) {
    std::string head = argv[3];
    std::string request;
    for (const char c : head) request += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const auto a = http_exchange(address, request);
    const int want = std::atoi(argv[4]);
    check(a && a->status == want, "'" + std::string(argv[3]).substr(0, 40) + "...': HTTP " +
                                      (a ? std::to_string(a->status) : std::string("(no answer)")) + ", expected " + argv[4]);
    return failures == 0 ? 0 : 1;
  }
  if (mode == "dashboard" && argc >= 4) return check_dashboard(address, argv[3], {argv + 4, argv + argc});
  if (mode == "jsonlines" && argc >= 4) return check_json_lines(argv[3], {argv + 4, argv + argc});
  const std::string path = mode == "metrics" ? "/metrics" : "/status";
  const auto a = get(address, path);
  if (!a || a->status != 200) {
    check(false, "GET " + path + ": " + (a ? "HTTP " + std::to_string(a->status) : std::string("no answer")));
    return 1;
  }
  if (mode == "metrics") {
    check(a->head.find("Content-Type: text/plain; version=0.0.4") != std::string::npos, "/metrics: Content-Type text/plain; version=0.0.4");
    const auto samples = parse_exposition(a->body);
    for (int i = 3; i < argc; ++i) expect_metric(samples, argv[i]);
  } else if (mode == "status") {
    check(a->head.find("Content-Type: application/json") != std::string::npos, "/status: Content-Type application/json");
    google::protobuf::Value root;
    const auto parsed = google::protobuf::util::JsonStringToMessage(a->body, &root);
    check(parsed.ok() && root.kind_case() == google::protobuf::Value::kStructValue,
          "/status parses as a JSON object (" + std::to_string(a->body.size()) + " bytes)");
    if (!parsed.ok()) {
      std::cout << a->body << "\n";
      return 1;
    }
    for (int i = 3; i < argc; ++i) expect_json(root, argv[i]);
  } else {
    std::cerr << "unknown mode " << mode << "\n";
    return 2;
  }
  return failures == 0 ? 0 : 1;
}
