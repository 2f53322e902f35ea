#pragma once
// Method parameters, declared once per method (Tapkee style): name, type, default, range and doc
// live in the method's descriptor, and the config validator, `drbench methods` and the factory all
// read that single declaration.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace drbench {

enum class ParamType { Bool, Int, Real, Choice };

// The version of the parameter names that settings are written with: 1 until the
// one-name-per-concept renames (ridge, lambda, tolerance), 2 since. Results files record it
// (root attribute settings_version); older settings are read through each parameter's former
// name (docs/results-format.md, "Renamed parameters").
inline constexpr int kSettingsVersion = 2;

using ParamValue = std::variant<bool, std::int64_t, double, std::string>;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::Real;
  ParamValue default_value;
  std::optional<double> min;  // inclusive bounds for Int and Real
  std::optional<double> max;
  std::vector<std::string> choices;  // allowed values for Choice
  std::string doc;
  bool min_exclusive = false;  // e.g. a kernel width must be > 0
  // Choice values retired in favour of new ones (old, new): refused with the new one named.
  std::vector<std::pair<std::string, std::string>> renamed_choices;
  // false for a parameter added after results existed: at its default it stays out of the
  // setting's canonical text, so the task keys (and seeds) of earlier runs still match and they
  // resume; set to any other value, it is part of the setting like every parameter.
  bool keyed_at_default = true;
  // The name this parameter had in settings before version `renamed_in` (empty: never renamed).
  // Settings of earlier versions are migrated to the current name when read, a config using the
  // former name is refused naming this one, and task seeds hash the version-1 name, so a rename
  // changes no seed and no result.
  std::string former_name;
  int renamed_in = 0;

  static ParamSpec real(std::string name, double def, std::optional<double> lo,
                        std::optional<double> hi, std::string doc, bool lo_exclusive = false);
  static ParamSpec integer(std::string name, std::int64_t def, std::optional<double> lo,
                           std::optional<double> hi, std::string doc);
  static ParamSpec boolean(std::string name, bool def, std::string doc);
  static ParamSpec choice(std::string name, std::string def, std::vector<std::string> choices,
                          std::string doc);

  // Empty when v is acceptable, otherwise what is wrong and what would be valid.
  std::string check(const ParamValue& v) const;
  std::string range_text() const;  // "[0, inf)", "{rbf, poly}", ...
};

std::string type_name(ParamType t);
std::string to_string(const ParamValue& v);

// One concrete setting of a method's parameters. Every declared parameter is present (defaults
// filled in), so methods never need their own fallbacks.
class ParamSet {
 public:
  ParamSet() = default;
  void set(const std::string& name, ParamValue v) { values_[name] = std::move(v); }
  // Leaves `name` out of canonical() while it holds `value` (ParamSpec::keyed_at_default).
  void omit_at(const std::string& name, ParamValue value) { omit_at_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }

  double real(const std::string& name) const;  // Int values convert
  std::int64_t integer(const std::string& name) const;
  bool boolean(const std::string& name) const;
  const std::string& str(const std::string& name) const;

  const std::map<std::string, ParamValue>& values() const { return values_; }
  // Canonical "a=1,b=rbf" text in name order; used as the setting's identity in results and seeds.
  std::string canonical() const;

 private:
  const ParamValue& at(const std::string& name) const;
  std::map<std::string, ParamValue> values_;
  std::map<std::string, ParamValue> omit_at_;
};

// A typed parameter key (Tapkee's ParameterKeyword): the one object that both declares a
// parameter (its ParamSpec: name, default, range, doc) and reads it back from a setting as T, so
// no call site spells a name or picks an accessor. T is bool (Bool), std::int64_t (Int), double
// (Real) or std::string (Choice); a spec of another type is refused when the key is built, i.e.
// when the method registers. A method turns its ParamSet into plain values once, in its `make`.
template <class T>
class Key {
 public:
  Key(ParamSpec spec) : spec_(std::move(spec)) {  // NOLINT: implicit, from ParamSpec::real(...)
    if (spec_.type != expected())
      throw std::logic_error("parameter '" + spec_.name + "' is declared " + type_name(spec_.type) +
                             " but keyed as " + type_name(expected()));
  }
  const ParamSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }
  // Declaration: a key stands in for its spec in MethodInfo::params = {k1, k2, ...}.
  operator const ParamSpec&() const { return spec_; }
  // The value in a completed setting (MethodInfo::complete fills every declared default).
  T operator()(const ParamSet& p) const {
    if constexpr (std::is_same_v<T, bool>)
      return p.boolean(spec_.name);
    else if constexpr (std::is_same_v<T, std::int64_t>)
      return p.integer(spec_.name);
    else if constexpr (std::is_same_v<T, double>)
      return p.real(spec_.name);
    else
      return p.str(spec_.name);
  }
  // A key with a tweaked spec (a narrower range, keyed_at_default, ...), same name and type.
  template <class F>
  Key with(F&& edit) const {
    ParamSpec s = spec_;
    edit(s);
    return Key(std::move(s));
  }

 private:
  static constexpr ParamType expected() {
    if constexpr (std::is_same_v<T, bool>)
      return ParamType::Bool;
    else if constexpr (std::is_same_v<T, std::int64_t>)
      return ParamType::Int;
    else if constexpr (std::is_same_v<T, double>)
      return ParamType::Real;
    else
      return ParamType::Choice;
  }
  ParamSpec spec_;
};

using BoolKey = Key<bool>;
using IntKey = Key<std::int64_t>;
using RealKey = Key<double>;
using ChoiceKey = Key<std::string>;

}  // namespace drbench
