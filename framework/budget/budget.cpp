#include "framework/budget/budget.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"

namespace drbench {

FittedConstants::FittedConstants(std::initializer_list<FittedConstant> rows) : rows_(rows) {
  for (const auto& r : rows_)
    if (r.name.empty() || r.fitted_on.empty() || r.measured_by.empty())
      throw Error("internal: fitted constant '" + r.name +
                  "' needs a name, what it was fitted on and how it was measured");
}

double FittedConstants::operator()(const std::string& name) const {
  for (const auto& r : rows_)
    if (r.name == name) return r.value;
  throw Error("internal: no fitted constant '" + name + "' in this budget's table");
}

double default_cost(const DataShape& s) {
  return static_cast<double>(s.n) * static_cast<double>(s.n) * static_cast<double>(s.d);
}

double memory_default(const DataShape& s, arma::uword dim) {
  const double n = double(s.n), d = double(s.d);
  return 8.0 * (n * n + 4.0 * n * d + 4.0 * n * double(dim));
}

double memory_linear(const DataShape& s, arma::uword dim) {
  const double n = double(s.n), m = double(s.n_test), d = double(s.d), q = double(dim);
  return 8.0 * ((n + m) * d + 3.0 * d * d + 2.0 * (n + m) * q);
}

double memory_dense(const DataShape& s, arma::uword dim, double fit, double kept) {
  const double n = double(s.n), m = double(s.n_test), d = double(s.d), q = double(dim);
  return 8.0 *
         (std::max(fit * n * n, kept * n * n + 2.0 * n * m) + 2.0 * n * d + 2.0 * (n + m) * q);
}

TaskSize::TaskSize(const DataShape& s, const ParamSet& setting, arma::uword dims)
    : shape(s),
      p(setting),
      dim(dims),
      n(double(s.n)),
      d(double(s.d)),
      n_test(double(s.n_test)),
      q(double(dims)),
      classes(double(s.n_classes)) {}

namespace {

ShapeEstimate over_shape(TaskEstimate e) {
  if (!e) return nullptr;
  return [e = std::move(e)](const DataShape& s, const ParamSet& p, arma::uword dim) {
    return e(TaskSize(s, p, dim));
  };
}

}  // namespace

Budget make_budget(TaskEstimate cost, TaskEstimate memory, FittedConstants fitted) {
  Budget b;
  b.cost = over_shape(std::move(cost));
  b.memory = over_shape(std::move(memory));
  b.fitted = std::move(fitted);
  return b;
}

Budget linear_budget(TaskEstimate cost, TaskEstimate extra) {
  if (!extra)
    return make_budget(std::move(cost),
                       [](const TaskSize& z) { return memory_linear(z.shape, z.dim); });
  return make_budget(std::move(cost), [extra = std::move(extra)](const TaskSize& z) {
    return memory_linear(z.shape, z.dim) + extra(z);
  });
}

Budget dense_budget(TaskEstimate cost, double fit, double kept) {
  return make_budget(std::move(cost), [fit, kept](const TaskSize& z) {
    return memory_dense(z.shape, z.dim, fit, kept);
  });
}

Budget plus_memory(Budget b, TaskEstimate extra) {
  ShapeEstimate base = b.memory;
  if (!base)
    base = [](const DataShape& s, const ParamSet&, arma::uword dim) {
      return memory_default(s, dim);
    };
  b.memory = [base, extra = std::move(extra)](const DataShape& s, const ParamSet& p,
                                              arma::uword dim) {
    return base(s, p, dim) + extra(TaskSize(s, p, dim));
  };
  return b;
}

TaskEstimate dense_eigen_cost(double per_point, double per_n) {
  return
      [per_point, per_n](const TaskSize& z) { return z.n * z.n * (z.d + per_point + per_n * z.n); };
}

TaskEstimate thin_svd_cost() {
  return [](const TaskSize& z) {
    const double a = std::min(z.n, z.d), c = std::max(z.n, z.d);
    return a * a * c;
  };
}

Budgets& Budgets::instance() {
  static Budgets b;
  return b;
}

void Budgets::add(Budget b) {
  for (const auto& x : budgets_)
    if (x.method == b.method) throw Error("internal: method '" + b.method + "' budgeted twice");
  budgets_.push_back(std::move(b));
  std::sort(budgets_.begin(), budgets_.end(),
            [](const Budget& a, const Budget& c) { return a.method < c.method; });
}

const Budget* Budgets::find(const std::string& method) const {
  for (const auto& b : budgets_)
    if (b.method == method) return &b;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = configured_.find(method);
  return it == configured_.end() ? nullptr : it->second.get();
}

void Budgets::add_configured(Budget b) {
  auto p = std::make_shared<const Budget>(std::move(b));
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = configured_[p->method];
  if (slot) retired_.push_back(slot);  // whoever holds the earlier one keeps it alive
  slot = p;
}

namespace detail {

MethodRegistrar::MethodRegistrar(MethodInfo (*describe)(), Budget (*declare)()) {
  MethodInfo info = describe();
  Budget b = declare();
  if (!b.method.empty() && b.method != info.name)
    throw Error("internal: a budget of '" + b.method + "' registered as '" + info.name + "'");
  b.method = info.name;
  Registry::instance().add(std::move(info));
  Budgets::instance().add(std::move(b));
}

}  // namespace detail

double cost_of(const MethodInfo& info, const DataShape& s, const ParamSet& p, arma::uword dim) {
  const Budget* b = Budgets::instance().find(info.name);
  if (b && b->cost) return b->cost(s, p, dim);
  return default_cost(s);
}

double memory_of(const MethodInfo& info, const DataShape& s, const ParamSet& p, arma::uword dim) {
  const Budget* b = Budgets::instance().find(info.name);
  if (b && b->memory) return b->memory(s, p, dim);
  return memory_default(s, dim);
}

double iterations_of(const MethodInfo& info, const ParamSet& p) {
  const Budget* b = Budgets::instance().find(info.name);
  if (b && b->iterations) return std::max(1.0, b->iterations(p));
  // Any default and range: only the name and type matter for reading.
  static const IntKey vocabulary = keywords::iterations(1, 1, "");
  const ParamSpec* s = info.param(vocabulary.name());
  if (!s || s->type != ParamType::Int || !p.has(vocabulary.name())) return 1.0;
  return std::max(1.0, double(vocabulary(p)));
}

void configure_budget(const std::string& base, const std::string& configured,
                      const MethodEntry& entry) {
  const Budget* b = Budgets::instance().find(base);
  if (!b || !b->configure) return;
  Budget made = b->configure(entry);
  made.method = configured;
  Budgets::instance().add_configured(std::move(made));
}

}  // namespace drbench
