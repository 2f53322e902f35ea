#include "framework/config/grid.hpp"

#include <cmath>

#include "framework/core/error.hpp"

namespace drbench::config {

static ParamValue normalise(const ParamSpec& spec, ParamValue v) {
  if (spec.type == ParamType::Real)
    if (auto i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return v;
}

ParamValue checked_value(const Reader& r, const ParamSpec& spec, const YAML::Node& n,
                         const std::string& key) {
  ParamValue v = normalise(spec, r.value(n, key));
  // Choices are names; "degree: 3" for a choice {2, 3} means the choice named "3".
  if (spec.type == ParamType::Choice && !std::holds_alternative<std::string>(v)) v = n.Scalar();
  if (auto problem = spec.check(v); !problem.empty())
    r.fail(n, key, problem, spec.doc.empty() ? "" : spec.name + ": " + spec.doc);
  return v;
}

std::vector<double> linspace(double lo, double hi, std::int64_t n) {
  std::vector<double> out;
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back(n == 1 ? lo : i == n - 1 ? hi : lo + (hi - lo) * double(i) / double(n - 1));
  return out;
}

std::vector<double> logspace(double lo_exp, double hi_exp, std::int64_t n) {
  std::vector<double> out;
  for (double e : linspace(lo_exp, hi_exp, n)) out.push_back(std::pow(10.0, e));
  return out;
}

GridAxis grid_axis(const Reader& r, const ParamSpec& spec, const YAML::Node& n,
                   const std::string& key) {
  GridAxis axis;
  axis.param = spec.name;
  axis.line = Reader::line(n);
  std::vector<YAML::Node> where;  // node each value came from, for duplicate errors
  if (n.IsScalar()) {
    axis.values.push_back(checked_value(r, spec, n, key));
    where.push_back(n);
  } else if (n.IsSequence()) {
    r.expect_list(n, key);
    for (std::size_t i = 0; i < n.size(); ++i) {
      axis.values.push_back(checked_value(r, spec, n[i], index_key(key, i)));
      where.push_back(n[i]);
    }
  } else if (n.IsMap()) {
    const std::vector<std::string> kinds = {"logspace", "linspace"};
    if (n.size() != 1)
      r.fail(n, key, "a generated axis has exactly one key",
             "{logspace: [lo_exp, hi_exp, n]} or {linspace: [lo, hi, n]}");
    const auto kv = *n.begin();
    const std::string kind = r.one_of(kv.first, key, kinds);
    const std::string gkey = join_key(key, kind);
    const YAML::Node a = kv.second;
    const std::string form = kind == "logspace" ? "[lo_exp, hi_exp, n], e.g. [-3, 3, 7]"
                                                : "[lo, hi, n], e.g. [0.1, 1.0, 10]";
    if (!a.IsSequence() || a.size() != 3)
      r.fail(a, gkey, "expected a list of 3 numbers, got " + describe(a), form);
    const double lo = r.real(a[0], index_key(gkey, 0));
    const double hi = r.real(a[1], index_key(gkey, 1));
    const std::int64_t count = r.integer(a[2], index_key(gkey, 2), 1, 100000);
    if (count > 1 && lo == hi)
      r.fail(a, gkey,
             "lo and hi are equal, so the " + std::to_string(count) +
                 " points would all be the same value",
             "use a single value, or different bounds");
    const auto vals = kind == "logspace" ? logspace(lo, hi, count) : linspace(lo, hi, count);
    for (double x : vals) {
      ParamValue v = x;
      // An integer parameter takes the generated points when they are whole numbers.
      if (spec.type == ParamType::Int) {
        if (x != std::round(x))
          r.fail(a, gkey,
                 kind + " gives the non-integer value " + to_string(v) +
                     " for integer parameter '" + spec.name + "'",
                 "choose bounds and n so every point is a whole number, or list the values");
        v = static_cast<std::int64_t>(std::llround(x));
      }
      if (auto problem = spec.check(v); !problem.empty())
        r.fail(a, gkey, kind + " point " + to_string(v) + ": " + problem,
               spec.doc.empty() ? "" : spec.name + ": " + spec.doc);
      axis.values.push_back(v);
      where.push_back(a);
    }
  } else {
    r.fail(n, key, "expected a value, a list or {logspace/linspace: [..]}, got " + describe(n));
  }
  for (std::size_t i = 0; i < axis.values.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (axis.values[i] == axis.values[j])
        r.fail(where[i], key, "value " + to_string(axis.values[i]) + " appears twice",
               "list each value once (duplicates would run identical tasks)");
  return axis;
}

bool ignores_dims(const MethodInfo& info) {
  // Probe with a typical shape: a method that ignores dims says so for any data.
  try {
    return info.dim_limit(DataShape{1000, 100, 10}, info.complete({})) == arma::uword(-1);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace drbench::config

namespace drbench {

std::vector<ParamSet> expand_grid(const MethodSpec& spec) {
  const MethodInfo& info = Registry::instance().get(spec.method);
  // Odometer over the axes in the order written: the last axis varies fastest.
  std::vector<ParamSet> out;
  std::vector<std::size_t> idx(spec.grid.size(), 0);
  for (const auto& a : spec.grid)
    if (a.values.empty()) return out;
  while (true) {
    ParamSet given;
    for (std::size_t k = 0; k < spec.grid.size(); ++k)
      given.set(spec.grid[k].param, spec.grid[k].values[idx[k]]);
    out.push_back(info.complete(given));
    std::size_t k = spec.grid.size();
    while (k > 0 && ++idx[k - 1] == spec.grid[k - 1].values.size()) idx[--k] = 0;
    if (k == 0) break;
  }
  return out;
}

}  // namespace drbench
