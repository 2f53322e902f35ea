#pragma once
// A method's budget: what the run side assumes a task of it costs, holds and iterates, kept apart
// from its contract (MethodInfo: what it is, its parameters, how to fit it). Task costs
// (framework/plan), the memory check and the cost model (framework/sched) read budgets only
// through cost_of, memory_of and iterations_of below; a method declares its budget in its own
// folder with DRBENCH_REGISTER_BUDGET, beside its DRBENCH_REGISTER_METHOD. A method without a
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
}  // namespace detail

}  // namespace drbench

// Usage, in a method's folder:  DRBENCH_REGISTER_BUDGET(pca_budget)  where  Budget pca_budget();
#define DRBENCH_REGISTER_BUDGET(fn) \
  static const ::drbench::detail::BudgetRegistrar drbench_budget_registrar_##fn{&fn};
