#pragma once
// Method parameters, declared once per method (Tapkee style): name, type, default, range and doc
// live in the method's descriptor, and the config validator, `drbench methods` and the factory all
// read that single declaration.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace drbench {

enum class ParamType { Bool, Int, Real, Choice };

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

}  // namespace drbench
