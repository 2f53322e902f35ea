#pragma once
// A method's budget: what the run side assumes a task of it costs, holds and iterates, kept apart
// from its contract (MethodInfo: what it is, its parameters, how to fit it). Task costs
// (framework/plan), the memory check and the cost model (framework/sched) read budgets only
// through cost_of, memory_of and iterations_of below; a method declares its budget in its own
// folder and registers it with the method, DRBENCH_METHOD(info, budget) below. A method without a
// budget gets the default one: cost n^2 d, memory memory_default (one dense n x n matrix), its
// `iterations` parameter as the iteration cap. docs/adding-a-method.md, "The budget".
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "framework/core/registry.hpp"

namespace drbench {

// A constant of an estimate that was fitted to measurements rather than counted from the arrays a
// method holds: its value and where it came from, so that it can be refitted and its reach judged.
struct FittedConstant {
  std::string name;
  double value = 0;
  std::string fitted_on;    // data set, size and setting the measurements were taken on
  std::string measured_by;  // the command or benchmark, and the build or date it ran on
};

// A budget's table of fitted constants; its estimates read every fitted value from it by name.
class FittedConstants {
 public:
  FittedConstants() = default;
  FittedConstants(std::initializer_list<FittedConstant> rows);
  // The value of `name`; throws Error (an internal one) for a name the table does not hold.
  double operator()(const std::string& name) const;
  const std::vector<FittedConstant>& rows() const { return rows_; }

 private:
  std::vector<FittedConstant> rows_;
};

using ShapeEstimate = std::function<double(const DataShape&, const ParamSet&, arma::uword dim)>;

struct Budget {
  std::string method;  // the MethodInfo::name it belongs to
  // Relative cost of one task, used to hand out the longest tasks first and, scaled by the cost
  // model, to predict run times. Empty: default_cost.
  ShapeEstimate cost;
  // Peak memory of one fit plus its out-of-sample map and scoring, in bytes: `drbench
  // validate`/`run` refuse a task whose estimate exceeds what one rank may use, and `drbench
  // plan` prints it. Empty: memory_default.
  ShapeEstimate memory;
  // The iteration cap of a setting, which the cost model scales run times by. Empty: the
  // vocabulary's `iterations` where the method declares it, else 1.
  std::function<double(const ParamSet&)> iterations;
  // The fitted constants the estimates above read.
  FittedConstants fitted;
  // A method configured from its config entry (MethodInfo::configure): the budget of one
  // configured descriptor, which the config parser registers under that descriptor's name.
  std::function<Budget(const MethodEntry&)> configure;
};

// What a method without its own budget is assumed to cost: n^2 d.
double default_cost(const DataShape& s);
// What a method without its own budget is assumed to hold: the data, one dense n x n matrix and
// a few n x d and n x dim work arrays, as doubles. A method that runs at scale needs its own.
double memory_default(const DataShape& s, arma::uword dim);

// Building blocks of the methods' own memory estimates, in bytes. Each counts the method's work
// arrays only: its input (the training points) and the test points are part of the cached
// partition, which the memory model counts for every rank.
// A linear projection: centred copies of the training and test points (n x d, n_test x d), a few
// d x d scatter/covariance matrices with their eigenvectors and the embeddings.
double memory_linear(const DataShape& s, arma::uword dim);
// A method of dense n x n matrices: `fit` of them held at once while fitting (kernel, its factor,
// eigenvectors, a gradient, ...), then `kept` of them by the fitted model while the test side
// (an n x n_test cross-kernel and its centred copy) is built; the larger of the two phases.
double memory_dense(const DataShape& s, arma::uword dim, double fit, double kept);

// What an estimate reads, with the sizes as doubles (the form the estimates are written in):
// n training points, d input dimensions, n_test mapped points, q = dim, classes (0 unlabelled);
// the shape, the setting and dim as given, for the helpers that take them.
struct TaskSize {
  const DataShape& shape;
  const ParamSet& p;
  arma::uword dim;
  double n, d, n_test, q, classes;
  TaskSize(const DataShape& s, const ParamSet& setting, arma::uword dims);
};
using TaskEstimate = std::function<double(const TaskSize&)>;

// Budgets in one expression, for DRBENCH_METHOD below. An empty estimate keeps the default.
Budget make_budget(TaskEstimate cost, TaskEstimate memory = nullptr, FittedConstants fitted = {});
// A linear projection: memory_linear, plus `extra` work arrays where given.
Budget linear_budget(TaskEstimate cost, TaskEstimate extra = nullptr);
// A method of dense n x n matrices: memory_dense with `fit` and `kept` of them.
Budget dense_budget(TaskEstimate cost, double fit, double kept);
// `b` with `extra` bytes on top of its memory estimate (the default's where it has none).
Budget plus_memory(Budget b, TaskEstimate extra);
// Dense eigendecomposition of an n x n matrix built from the data: n^2 (d + per_point + per_n n)
// (per_n = 5 for a full one, 0 where a few eigenvectors are taken iteratively).
TaskEstimate dense_eigen_cost(double per_point, double per_n);
// A thin SVD or covariance eigenproblem of the data: min(n, d)^2 max(n, d).
TaskEstimate thin_svd_cost();

class Budgets {
 public:
  static Budgets& instance();
  void add(Budget b);  // throws on a second budget for the same method
  // The budget of `method`, or nullptr where it has none (the default applies).
  const Budget* find(const std::string& method) const;
  const std::vector<Budget>& all() const { return budgets_; }
  // The budget of a configured descriptor (Budget::configure); registering a name again replaces
  // what find() returns, as Registry::add_configured does.
  void add_configured(Budget b);

 private:
  std::vector<Budget> budgets_;
  std::map<std::string, std::shared_ptr<const Budget>> configured_;
  std::vector<std::shared_ptr<const Budget>> retired_;
  mutable std::mutex mutex_;
};

// The estimates of a task of `info` with setting p: its budget's, or the default.
double cost_of(const MethodInfo& info, const DataShape& s, const ParamSet& p, arma::uword dim);
double memory_of(const MethodInfo& info, const DataShape& s, const ParamSet& p, arma::uword dim);
double iterations_of(const MethodInfo& info, const ParamSet& p);

// The budget a configured descriptor runs under: `base`'s configure hook applied to its entry,
// registered under `configured` (nothing where `base` has no budget or no hook).
void configure_budget(const std::string& base, const std::string& configured,
                      const MethodEntry& entry);

namespace detail {
struct BudgetRegistrar {
  explicit BudgetRegistrar(Budget (*declare)()) { Budgets::instance().add(declare()); }
};
// Registers the method `describe` makes and the budget `declare` makes under its name; throws,
// registering neither, where that budget names another method.
struct MethodRegistrar {
  MethodRegistrar(MethodInfo (*describe)(), Budget (*declare)());
};
}  // namespace detail

}  // namespace drbench

// Usage, in a method's .cpp: the method and its budget, in place of DRBENCH_REGISTER_METHOD:
//   DRBENCH_METHOD(pca_info, linear_budget(thin_svd_cost()))   where  MethodInfo pca_info();
// The budget expression is evaluated once, at start-up.
#define DRBENCH_METHOD(describe, ...)                                        \
  static const ::drbench::detail::MethodRegistrar drbench_method_##describe{ \
      &describe, []() -> ::drbench::Budget { return __VA_ARGS__; }};
// A budget on its own, from a function that sets its `method` (test doubles, descriptors built
// without registering):  DRBENCH_REGISTER_BUDGET(test_budget)  where  Budget test_budget();
#define DRBENCH_REGISTER_BUDGET(fn) \
  static const ::drbench::detail::BudgetRegistrar drbench_budget_registrar_##fn{&fn};
