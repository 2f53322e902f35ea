#pragma once
// What a method configured by its config entry (MethodInfo::configure) reads: the entry itself,
// the reader that reports problems at the entry's lines, and where the config lives (relative
// paths in the entry are relative to it).
#include <yaml-cpp/yaml.h>

#include <string>

#include "framework/config/yaml_reader.hpp"

namespace drbench {

struct MethodEntry {
  const YAML::Node& node;  // the methods[i] map
  const config::Reader& reader;
  std::string key;         // "methods[2]", for messages
  std::string label;       // the entry's label (the method name when none is given)
  std::string config_dir;  // directory of the config file ("." for a text without a file)
};

}  // namespace drbench
