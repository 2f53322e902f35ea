#include "framework/config/yaml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>
#include <set>

#include "framework/core/error.hpp"

namespace drbench {

std::vector<ConfigOverride> parse_overrides(const std::vector<std::string>& args) {
  std::vector<ConfigOverride> out;
  for (const std::string& a : args) {
    const auto eq = a.find('=');
    const std::string path = a.substr(0, eq);
    // name ('[' digits ']')* ('.' name ('[' digits ']')*)*
    static const std::regex grammar(R"([A-Za-z_]\w*(\[\d+\])*(\.[A-Za-z_]\w*(\[\d+\])*)*)");
    if (eq == std::string::npos || !std::regex_match(path, grammar))
      throw ConfigError::on_command_line(
          a, "", "not a config override",
          "write key=value with the key's path, e.g. splits.repeats=2, "
          "methods[1].grid.neighbours=[5,10], output.path=x.h5");
    const std::string value = a.substr(eq + 1);
    // `key=` would parse as null and silently remove the key (repeats 3 -> 1, seed -> 0).
    if (value.find_first_not_of(" \t") == std::string::npos)
      throw ConfigError::on_command_line(a, path, "the value is empty",
                                         "give a value after '=' (e.g. splits.repeats=3); '" +
                                             path + "=~' removes the key, \"" + path +
                                             "=''\" sets an empty string");
    // An index no list can reach (and that would not fit an integer) is refused here by name.
    static const std::regex index(R"(\[(\d+)\])");
    for (auto it = std::sregex_iterator(path.begin(), path.end(), index);
         it != std::sregex_iterator(); ++it)
      if ((*it)[1].length() > 9)
        throw ConfigError::on_command_line(a, path,
                                           "the list index " + (*it)[1].str() + " is out of range",
                                           "lists are indexed from 0, e.g. methods[1].dims=[2]");
    out.push_back({path, a, value});
  }
  return out;
}

}  // namespace drbench

namespace drbench::config {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  // A third of the word's length (at least 2) separates typos from unrelated names.
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::size_t best = limit + 1;
  std::string pick;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best) best = d, pick = c;
  }
  return pick.empty() ? "" : "did you mean '" + pick + "'? ";
}

std::string join_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

std::string join_key(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string index_key(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string describe(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  return "'" + n.Scalar() + "'";
}

std::optional<std::int64_t> parse_int(const std::string& s) {
  std::size_t start = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (start == s.size()) return std::nullopt;
  for (std::size_t i = start; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  std::int64_t v = 0;
  const char* first = s.data() + (s[0] == '+' ? 1 : 0);
  auto [ptr, ec] = std::from_chars(first, s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_real(const std::string& s) {
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf")
    return std::numeric_limits<double>::infinity();
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return -std::numeric_limits<double>::infinity();
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return std::numeric_limits<double>::quiet_NaN();
  // [-+]? (digits [. digits?] | . digits) ([eE] [-+]? digits)?  -- refuses hex, "inf", "1e".
  std::size_t i = 0, n = s.size();
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp_digits;
    if (exp_digits == 0) return std::nullopt;
  }
  if (i != n) return std::nullopt;
  return std::strtod(s.c_str(), nullptr);
}

std::optional<bool> parse_bool(const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

// Quoted scalars carry the non-specific tag "!": the user asked for a string.
static bool is_plain(const YAML::Node& n) {
  return n.Tag() != "!";
}

int Reader::line(const YAML::Node& n, int fallback) {
  if (!n.IsDefined()) return fallback;
  const YAML::Mark m = n.Mark();
  return m.is_null() || m.line < 0 ? fallback : m.line + 1;
}

const ConfigOverride* Reader::override_of(const std::string& key) const {
  for (const auto& o : overrides_)
    if (key == o.path || (key.rfind(o.path, 0) == 0 && key.size() > o.path.size() &&
                          (key[o.path.size()] == '.' || key[o.path.size()] == '[')))
      return &o;
  return nullptr;
}

void Reader::fail(int line, const std::string& key, const std::string& problem,
                  const std::string& fix) const {
  // Every refusal says where to look, also where no more specific fix is known.
  const std::string top = key.substr(0, key.find_first_of(".["));
  const std::string how = !fix.empty()  ? fix
                          : top.empty() ? "see docs/config.md for the keys a config takes"
                                        : "see '" + top + "' in docs/config.md";
  // A node an override created has no line: a problem reported at it (or above it, as a
  // parent map's "has no parameters") belongs to the override too.
  if (line == 0 && !key.empty())
    for (const auto& o : overrides_)
      if (o.path.rfind(key, 0) == 0) throw ConfigError::on_command_line(o.text, key, problem, how);
  if (const ConfigOverride* o = override_of(key))
    throw ConfigError::on_command_line(o->text, key, problem, how);
  throw ConfigError(file_, line, key, problem, how);
}

void Reader::fail(const YAML::Node& at, const std::string& key, const std::string& problem,
                  const std::string& fix) const {
  fail(line(at), key, problem, fix);
}

void Reader::expect_map(const YAML::Node& n, const std::string& key) const {
  if (!n.IsMap())
    fail(n, key, "expected a map (key: value lines), got " + describe(n),
         "write 'key: value' lines, or {key: value}");
}

void Reader::expect_list(const YAML::Node& n, const std::string& key, bool allow_empty) const {
  if (!n.IsSequence())
    fail(n, key, "expected a list, got " + describe(n), "write [a, b] or '- a' lines");
  if (!allow_empty && n.size() == 0) fail(n, key, "the list is empty", "give at least one entry");
}

void Reader::check_keys(const YAML::Node& map, const std::string& path,
                        const std::vector<std::string>& allowed) const {
  std::set<std::string> seen;
  for (const auto& kv : map) {
    if (!kv.first.IsScalar()) fail(kv.first, path, "map keys must be plain names");
    const std::string k = kv.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      fail(kv.first, join_key(path, k), "unknown key",
           did_you_mean(k, allowed) + "valid keys here: " + join_list(allowed));
    if (!seen.insert(k).second)
      fail(kv.first, join_key(path, k), "key given twice", "keep one of them");
  }
}

YAML::Node Reader::required(const YAML::Node& parent, const std::string& path,
                            const std::string& key) const {
  YAML::Node n = parent[key];
  if (!n.IsDefined()) fail(parent, join_key(path, key), "required key is missing");
  return n;
}

const YAML::Node& Reader::scalar(const YAML::Node& n, const std::string& key,
                                 const std::string& expected) const {
  if (!n.IsScalar()) fail(n, key, "expected " + expected + ", got " + describe(n));
  return n;
}

std::string Reader::str(const YAML::Node& n, const std::string& key) const {
  const std::string s = scalar(n, key, "a string").Scalar();
  if (s.empty()) fail(n, key, "expected a non-empty string");
  return s;
}

bool Reader::boolean(const YAML::Node& n, const std::string& key) const {
  auto b = is_plain(scalar(n, key, "true or false")) ? parse_bool(n.Scalar()) : std::nullopt;
  if (!b) fail(n, key, "expected true or false, got " + describe(n));
  return *b;
}

std::int64_t Reader::integer(const YAML::Node& n, const std::string& key,
                             std::optional<std::int64_t> min,
                             std::optional<std::int64_t> max) const {
  const auto parsed = is_plain(scalar(n, key, "an integer")) ? parse_int(n.Scalar()) : std::nullopt;
  const std::string range = std::string(min ? "[" + std::to_string(*min) : "(-inf") + ", " +
                            (max ? std::to_string(*max) + "]" : "inf)");
  if (!parsed) fail(n, key, "expected an integer, got " + describe(n), "an integer in " + range);
  const std::int64_t v = parsed.value();
  if ((min && v < *min) || (max && v > *max))
    fail(n, key, "value " + std::to_string(v) + " is out of range", "an integer in " + range);
  return v;
}

std::uint64_t Reader::uinteger(const YAML::Node& n, const std::string& key) const {
  const std::string& s = scalar(n, key, "a non-negative integer").Scalar();
  std::uint64_t v = 0;
  bool ok = is_plain(n) && !s.empty() &&
            std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit((unsigned char)c); });
  if (ok) {
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    ok = ec == std::errc() && ptr == s.data() + s.size();
  }
  if (!ok)
    fail(n, key, "expected a non-negative integer, got " + describe(n),
         "an integer in [0, 18446744073709551615]");
  return v;
}

double Reader::real(const YAML::Node& n, const std::string& key) const {
  auto v = is_plain(scalar(n, key, "a number")) ? parse_real(n.Scalar()) : std::nullopt;
  if (!v) fail(n, key, "expected a number, got " + describe(n));
  if (!std::isfinite(*v)) fail(n, key, "expected a finite number, got " + describe(n));
  return *v;
}

std::string Reader::one_of(const YAML::Node& n, const std::string& key,
                           const std::vector<std::string>& choices) const {
  const std::string s = scalar(n, key, "one of " + join_list(choices)).Scalar();
  if (std::find(choices.begin(), choices.end(), s) == choices.end())
    fail(n, key, "unknown value " + describe(n),
         did_you_mean(s, choices) + "one of " + join_list(choices));
  return s;
}

ParamValue Reader::value(const YAML::Node& n, const std::string& key) const {
  const std::string& s = scalar(n, key, "a single value").Scalar();
  if (is_plain(n)) {
    if (auto b = parse_bool(s)) return *b;
    if (auto i = parse_int(s)) return *i;
    if (auto d = parse_real(s)) return *d;
  }
  return s;
}

}  // namespace drbench::config
