#pragma once
// Hyperparameter values and grid axes, checked against the method's ParamSpec where they are read.
#include <yaml-cpp/yaml.h>

#include <string>

#include "framework/config/experiment.hpp"
#include "framework/config/yaml_reader.hpp"
#include "framework/core/registry.hpp"

namespace drbench::config {

// One scalar converted by its YAML form, normalised to the parameter's type (an int given for a
// real becomes a double; a number given for a choice is taken as its text) and checked.
ParamValue checked_value(const Reader& r, const ParamSpec& spec, const YAML::Node& n,
                         const std::string& key);

// `value`, `[values]`, `{logspace: [lo_exp, hi_exp, n]}` or `{linspace: [lo, hi, n]}`.
GridAxis grid_axis(const Reader& r, const ParamSpec& spec, const YAML::Node& n,
                   const std::string& key);

// n points from lo to hi inclusive, evenly spaced (linspace) or evenly spaced in log10 (logspace
// of exponents). n = 1 gives lo alone.
std::vector<double> linspace(double lo, double hi, std::int64_t n);
std::vector<double> logspace(double lo_exp, double hi_exp, std::int64_t n);

// True for methods whose embedding does not depend on `dims` (their max_dim is uword(-1)).
bool ignores_dims(const MethodInfo& info);

}  // namespace drbench::config
