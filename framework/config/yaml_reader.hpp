#pragma once
// Typed, strict access to a parsed YAML tree. Every problem becomes a ConfigError carrying the
// file, the 1-based line, the key path (methods[2].grid.gamma) and what would be valid, so a user
// launching a 64-rank job can fix the config without guessing.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "framework/config/override.hpp"
#include "framework/core/params.hpp"

namespace drbench::config {

std::size_t edit_distance(const std::string& a, const std::string& b);
// "did you mean 'knn'? " when a candidate is close enough to be a plausible typo, else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);
std::string join_list(const std::vector<std::string>& items);  // "a, b, c"

std::string join_key(const std::string& path, const std::string& key);  // "a.b"
std::string index_key(const std::string& path, std::size_t i);          // "a[3]"

// What a node is, for messages: "a map", "a list", "'abc'", "nothing".
std::string describe(const YAML::Node& n);

// Strict scalar grammars (YAML 1.2 core schema, without the octal/hex forms nobody means here).
std::optional<std::int64_t> parse_int(const std::string& s);
std::optional<double> parse_real(const std::string& s);  // includes .inf/-.inf/.nan
std::optional<bool> parse_bool(const std::string& s);    // true/false in any of YAML's cases

class Reader {
 public:
  explicit Reader(std::string file, std::vector<ConfigOverride> overrides = {})
      : file_(std::move(file)), overrides_(std::move(overrides)) {}
  const std::string& file() const { return file_; }

  // 1-based line of a node; `fallback` for nodes without a position (absent keys).
  static int line(const YAML::Node& n, int fallback = 0);

  [[noreturn]] void fail(int line, const std::string& key, const std::string& problem,
                         const std::string& fix = "") const;
  [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& problem,
                         const std::string& fix = "") const;

  void expect_map(const YAML::Node& n, const std::string& key) const;
  // A non-empty list (or an empty one where `allow_empty`).
  void expect_list(const YAML::Node& n, const std::string& key, bool allow_empty = false) const;
  // Refuses keys outside `allowed` (with a did-you-mean) and keys given twice.
  void check_keys(const YAML::Node& map, const std::string& path,
                  const std::vector<std::string>& allowed) const;
  // A key that must be present; `parent` is used for the line when it is not.
  YAML::Node required(const YAML::Node& parent, const std::string& path,
                      const std::string& key) const;

  std::string str(const YAML::Node& n, const std::string& key) const;
  bool boolean(const YAML::Node& n, const std::string& key) const;
  std::int64_t integer(const YAML::Node& n, const std::string& key,
                       std::optional<std::int64_t> min = std::nullopt,
                       std::optional<std::int64_t> max = std::nullopt) const;
  std::uint64_t uinteger(const YAML::Node& n, const std::string& key) const;
  double real(const YAML::Node& n, const std::string& key) const;
  // One of `choices`, with a did-you-mean otherwise.
  std::string one_of(const YAML::Node& n, const std::string& key,
                     const std::vector<std::string>& choices) const;
  // Scalar -> bool / int64 / double / string by its YAML form (quoted scalars are strings).
  ParamValue value(const YAML::Node& n, const std::string& key) const;

 private:
  const YAML::Node& scalar(const YAML::Node& n, const std::string& key,
                           const std::string& expected) const;
  // The override that set `key` or a key above it, if any: its problems are the command line's.
  const ConfigOverride* override_of(const std::string& key) const;
  std::string file_;
  std::vector<ConfigOverride> overrides_;
};

}  // namespace drbench::config
