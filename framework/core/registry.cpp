#include "framework/core/registry.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"

namespace drbench {

arma::mat Method::transform(const arma::mat&) const {
  throw MethodError(
      "this method has no out-of-sample map; use protocol: transductive (or auto) on its method "
      "entry");
}

MethodInfo describe_method(std::string name, std::string family, std::string summary,
                           std::string reference) {
  MethodInfo m;
  m.name = std::move(name);
  m.family = std::move(family);
  m.summary = std::move(summary);
  m.reference = std::move(reference);
  return m;
}

const ParamSpec* MethodInfo::param(const std::string& pname) const {
  for (const auto& p : params)
    if (p.name == pname) return &p;
  return nullptr;
}

namespace {

std::vector<std::pair<std::string, std::string>> setting_items(const std::string& setting) {
  std::vector<std::pair<std::string, std::string>> items;
  std::size_t at = 0;
  while (at < setting.size()) {
    std::size_t end = setting.find(',', at);
    if (end == std::string::npos) end = setting.size();
    const std::string item = setting.substr(at, end - at);
    at = end + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      items.emplace_back(item, "");
    else
      items.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return items;
}

// Items in name order, as ParamSet::canonical writes them (a rename can move an item).
std::string join_items(std::vector<std::pair<std::string, std::string>> items) {
  std::stable_sort(items.begin(), items.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string s;
  for (const auto& [k, v] : items) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

}  // namespace

ParamSet MethodInfo::parse_setting(const std::string& setting) const {
  ParamSet given;
  for (const auto& [name, v] : setting_items(setting)) {
    const ParamSpec* spec = param(name);
    if (!spec) continue;
    switch (spec->type) {
      case ParamType::Bool:
        given.set(spec->name, v == "true");
        break;
      case ParamType::Int:
        given.set(spec->name, std::int64_t(std::stoll(v)));
        break;
      case ParamType::Real:
        given.set(spec->name, std::stod(v));
        break;
      case ParamType::Choice:
        given.set(spec->name, v);
        break;
    }
  }
  return given;
}

std::string MethodInfo::migrate_setting(const std::string& setting, int from_version) const {
  auto items = setting_items(setting);
  bool renamed = false;
  for (auto& item : items)
    for (const auto& s : params)
      if (!s.former_name.empty() && from_version < s.renamed_in && item.first == s.former_name &&
          !param(item.first)) {
        item.first = s.name;
        renamed = true;
      }
  return renamed ? join_items(std::move(items)) : setting;
}

std::string MethodInfo::seed_setting(const ParamSet& p) const {
  const std::string text = p.canonical();
  auto items = setting_items(text);
  bool renamed = false;
  for (auto& item : items)
    if (const ParamSpec* s = param(item.first); s && !s->former_name.empty() && s->renamed_in > 1) {
      item.first = s->former_name;
      renamed = true;
    }
  return renamed ? join_items(std::move(items)) : text;
}

ParamSet MethodInfo::complete(const ParamSet& given) const {
  ParamSet out;
  for (const auto& p : params) {
    out.set(p.name, p.default_value);
    if (!p.keyed_at_default) out.omit_at(p.name, p.default_value);
  }
  for (const auto& [k, v] : given.values()) {
    const ParamSpec* spec = param(k);
    if (!spec) {
      const std::string fix = keywords::retired_name_fix(*this, k);
      throw Error("method '" + name + "' has no parameter '" + k + "'" +
                  (fix.empty() ? "" : ": " + fix));
    }
    // Integers written where a real is expected are promoted, so "gamma: 1" is a real 1.0.
    if (spec->type == ParamType::Real && std::holds_alternative<std::int64_t>(v))
      out.set(k, static_cast<double>(std::get<std::int64_t>(v)));
    else
      out.set(k, v);
  }
  return out;
}

arma::uword MethodInfo::dim_limit(const DataShape& s, const ParamSet& p) const {
  if (max_dim) return max_dim(s, p);
  return std::min<arma::uword>(s.n > 0 ? s.n - 1 : 0, s.d);
}

void MethodInfo::check_input(const FitInput& in, const ParamSet& p) const {
  if (in.Xs && !sparse_input)
    throw Error("internal: " + name + " was given sparse points but does not read them");
  if (in.Xs && !in.Xs->is_finite())
    throw MethodError(name + ": a stored input entry is not finite (NaN or Inf); remove or " +
                      "impute it before fitting");
  arma::uword bad = 0;
  while (bad < in.X.n_elem && std::isfinite(in.X(bad))) ++bad;
  if (bad < in.X.n_elem)
    throw MethodError(name + ": input entry (feature " + std::to_string(bad % in.X.n_rows) +
                      ", point " + std::to_string(bad / in.X.n_rows) +
                      ") is not finite (NaN or Inf); remove or impute it before fitting");
  if (supervised && (!in.labels || in.labels->n_elem != in.n_points()))
    throw MethodError(name + " is supervised: it needs one label per training point (got " +
                      (in.labels ? std::to_string(in.labels->n_elem) : std::string("none")) +
                      " for " + std::to_string(in.n_points()) + " points)");
  const DataShape shape{in.n_points(), in.n_features(), in.n_classes};
  const arma::uword limit = dim_limit(shape, p);
  // A method that ignores dims (max_dim = uword(-1), the identity baseline) runs with dim 0.
  if (limit == arma::uword(-1)) return;
  if (in.dim == 0 || in.dim > limit)
    throw MethodError(name + ": dims=" + std::to_string(in.dim) + " must be in 1.." +
                      std::to_string(limit) + " for " + std::to_string(shape.n) + " points in " +
                      std::to_string(shape.d) + "-D with " + std::to_string(shape.n_classes) +
                      " classes; lower 'dims'");
}

std::unique_ptr<Method> MethodInfo::fit(const ParamSet& p, const FitInput& in) const {
  check_input(in, p);
  std::unique_ptr<Method> m = make(p);
  m->fit(in);
  return m;
}

Registry& Registry::instance() {
  static Registry r;
  return r;
}

void Registry::add(MethodInfo info) {
  if (find(info.name)) throw Error("internal: method '" + info.name + "' registered twice");
  if (!info.make) throw Error("internal: method '" + info.name + "' has no factory");
  methods_.push_back(std::move(info));
  std::sort(methods_.begin(), methods_.end(),
            [](const MethodInfo& a, const MethodInfo& b) { return a.name < b.name; });
}

const MethodInfo* Registry::find(const std::string& name) const {
  for (const auto& m : methods_)
    if (m.name == name) return &m;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = configured_.find(name);
  return it == configured_.end() ? nullptr : it->second.get();
}

const MethodInfo& Registry::add_configured(MethodInfo info) {
  for (const auto& m : methods_)
    if (m.name == info.name)
      throw Error("internal: configured method '" + info.name + "' shadows a built-in one");
  if (!info.make) throw Error("internal: method '" + info.name + "' has no factory");
  auto p = std::make_shared<const MethodInfo>(std::move(info));
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = configured_[p->name];
  if (slot) retired_.push_back(slot);
  slot = p;
  return *p;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> n;
  for (const auto& m : methods_) n.push_back(m.name);
  return n;
}

const MethodInfo& Registry::get(const std::string& name) const {
  if (auto m = find(name)) return *m;
  std::string known;
  for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
  throw Error("unknown method '" + name + "' (known: " + known + ")");
}

}  // namespace drbench
