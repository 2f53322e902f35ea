#include "framework/core/params.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

// A numeric key with its range: what real and integer specs share.
ParamSpec ranged(std::string name, ParamType type, ParamValue def, std::optional<double> lo,
                 std::optional<double> hi, std::string doc) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = type;
  s.default_value = std::move(def);
  s.min = lo;
  s.max = hi;
  s.doc = std::move(doc);
  return s;
}

}  // namespace

ParamSpec ParamSpec::real(std::string name, double def, std::optional<double> lo,
                          std::optional<double> hi, std::string doc, bool lo_exclusive) {
  ParamSpec s = ranged(std::move(name), ParamType::Real, def, lo, hi, std::move(doc));
  s.min_exclusive = lo_exclusive;
  return s;
}

ParamSpec ParamSpec::integer(std::string name, std::int64_t def, std::optional<double> lo,
                             std::optional<double> hi, std::string doc) {
  return ranged(std::move(name), ParamType::Int, def, lo, hi, std::move(doc));
}

ParamSpec ParamSpec::boolean(std::string name, bool def, std::string doc) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::Bool;
  s.default_value = def;
  s.doc = std::move(doc);
  return s;
}

ParamSpec ParamSpec::choice(std::string name, std::string def, std::vector<std::string> choices,
                            std::string doc) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::Choice;
  s.default_value = std::move(def);
  s.choices = std::move(choices);
  s.doc = std::move(doc);
  return s;
}

std::string type_name(ParamType t) {
  switch (t) {
    case ParamType::Bool:
      return "bool";
    case ParamType::Int:
      return "int";
    case ParamType::Real:
      return "real";
    case ParamType::Choice:
      return "choice";
  }
  return "?";
}

static std::string fmt_num(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os.precision(12);
  os << v;
  return os.str();
}

std::string to_string(const ParamValue& v) {
  if (auto b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (auto i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto d = std::get_if<double>(&v)) return fmt_num(*d);
  return std::get<std::string>(v);
}

std::string ParamSpec::range_text() const {
  if (type == ParamType::Bool) return "{true, false}";
  if (type == ParamType::Choice) {
    std::string s = "{";
    for (size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : "") + choices[i];
    return s + "}";
  }
  std::string lo = min ? fmt_num(*min) : "-inf";
  std::string hi = max ? fmt_num(*max) : "inf";
  return std::string(min && !min_exclusive ? "[" : "(") + lo + ", " + hi + (max ? "]" : ")");
}

std::string ParamSpec::check(const ParamValue& v) const {
  const std::string valid = "expected " + type_name(type) + " in " + range_text();
  switch (type) {
    case ParamType::Bool:
      return std::holds_alternative<bool>(v) ? "" : "got '" + to_string(v) + "'; " + valid;
    case ParamType::Choice: {
      auto s = std::get_if<std::string>(&v);
      if (s) {
        for (const auto& c : choices)
          if (c == *s) return "";
        for (const auto& [was, now] : renamed_choices)
          if (was == *s) return "got '" + was + "', which is now called '" + now + "'; " + valid;
      }
      return "got '" + to_string(v) + "'; " + valid;
    }
    case ParamType::Int:
    case ParamType::Real: {
      double x;
      if (auto i = std::get_if<std::int64_t>(&v))
        x = static_cast<double>(*i);
      else if (auto d = std::get_if<double>(&v)) {
        if (type == ParamType::Int)
          // A whole number read as real overflowed the integer parser: say that, not "non-integer".
          return (std::isfinite(*d) && *d == std::round(*d)
                      ? "got " + to_string(v) + ", too large for an integer; "
                      : "got non-integer '" + to_string(v) + "'; ") +
                 valid;
        x = *d;
      } else
        return "got '" + to_string(v) + "'; " + valid;
      if (!std::isfinite(x)) return "got non-finite value; " + valid;
      if (min && (x < *min || (min_exclusive && x == *min)))
        return "value " + to_string(v) + " out of range; " + valid;
      if (max && x > *max) return "value " + to_string(v) + " out of range; " + valid;
      return "";
    }
  }
  return "unknown type";
}

const ParamValue& ParamSet::at(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw Error("internal: parameter '" + name + "' was not declared");
  return it->second;
}

double ParamSet::real(const std::string& name) const {
  const auto& v = at(name);
  if (auto i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (auto d = std::get_if<double>(&v)) return *d;
  throw Error("internal: parameter '" + name + "' is not numeric");
}

std::int64_t ParamSet::integer(const std::string& name) const {
  const auto& v = at(name);
  if (auto i = std::get_if<std::int64_t>(&v)) return *i;
  throw Error("internal: parameter '" + name + "' is not an integer");
}

bool ParamSet::boolean(const std::string& name) const {
  const auto& v = at(name);
  if (auto b = std::get_if<bool>(&v)) return *b;
  throw Error("internal: parameter '" + name + "' is not a bool");
}

const std::string& ParamSet::str(const std::string& name) const {
  const auto& v = at(name);
  if (auto s = std::get_if<std::string>(&v)) return *s;
  throw Error("internal: parameter '" + name + "' is not a string");
}

std::string ParamSet::canonical() const {
  std::string s;
  for (const auto& [k, v] : values_) {
    const auto o = omit_at_.find(k);
    if (o != omit_at_.end() && o->second == v) continue;
    s += (s.empty() ? "" : ",") + k + "=" + to_string(v);
  }
  return s;
}

}  // namespace drbench
