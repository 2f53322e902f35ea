#pragma once
// A command-line override of one config key (`drbench run CONFIG methods[1].grid.k=[5,10]`),
// Hydra style: applied after the profile, validated like the file, recorded in the results.
#include <string>
#include <vector>

namespace drbench {

struct ConfigOverride {
  std::string path;   // "methods[1].grid.k"
  std::string text;   // the whole argument, for messages and provenance
  std::string value;  // YAML: `[5, 10]` is a list, `~` removes the key
};

// Splits each "path=value" argument; a malformed one is a ConfigError naming it and the fix.
std::vector<ConfigOverride> parse_overrides(const std::vector<std::string>& args);

}  // namespace drbench
