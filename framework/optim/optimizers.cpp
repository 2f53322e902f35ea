// The table of optimisers that minimize() and the configs choose from.
#include <algorithm>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/optim/optimizer.hpp"

namespace drbench {

const std::vector<OptimizerInfo>& optimizers() {
  static const std::vector<OptimizerInfo> table = {
      {"scg", "scaled conjugate gradients (Moller 1993, Netlab's scg.m)", false, false,
       [](Objective& o, const arma::vec& x, const OptimOptions& p) { return scg(o, x, p); }},
      {"lbfgs", "limited-memory BFGS, 10 pairs, strong Wolfe line search", false, false,
       [](Objective& o, const arma::vec& x, const OptimOptions& p) { return lbfgs(o, x, p); }},
      {"gd", "gradient descent with a Wolfe or Armijo line search", false, true, gradient_descent},
      {"cg",
       "nonlinear conjugate gradients (Polak-Ribiere+) with a Wolfe line search; the objective's "
       "direction, when given, preconditions it",
       false, true, conjugate_gradients},
      {"descent",
       "line search along the objective's own direction (spectral/Laplacian, fixed point)", true,
       true, direction_descent},
      {"momentum",
       "gradient descent with momentum and per-coordinate gains, fixed learning rate, phases "
       "(t-SNE's optimiser)",
       false, true, momentum_descent},
  };
  return table;
}

const OptimizerInfo* find_optimizer(const std::string& name) {
  for (const auto& o : optimizers())
    if (o.name == name) return &o;
  return nullptr;
}

ObjectiveWindow::ObjectiveWindow(double tol, int window)
    : tol_(tol), ring_(tol > 0 ? std::size_t(std::max(window, 1)) : 0) {}

bool ObjectiveWindow::converged(double f) {
  if (ring_.empty()) return false;
  const bool full = filled_ == ring_.size();
  const double oldest = ring_[next_];  // f from `window` iterations ago once the ring is full
  ring_[next_] = f;
  next_ = (next_ + 1) % ring_.size();
  if (!full) {
    ++filled_;
    return false;
  }
  return oldest - f <= tol_ * std::max(std::abs(f), 1.0);
}

OptimResult minimize(const std::string& name, Objective& obj, const arma::vec& x0,
                     const OptimOptions& opt) {
  const OptimizerInfo* o = find_optimizer(name);
  if (!o) {
    std::string known;
    for (const auto& e : optimizers()) known += (known.empty() ? "" : ", ") + e.name;
    throw Error("unknown optimizer '" + name + "' (known: " + known + ")");
  }
  if (o->needs_direction && !opt.direction)
    throw Error("optimizer '" + name + "' needs the objective to supply a search direction");
  if (!o->supports_phases && !opt.phases.empty())
    throw Error("optimizer '" + name + "' does not run phases; use gd, cg or descent");
  if (opt.rel_f_tol > 0 && name != "scg" && name != "lbfgs")
    throw Error("optimizer '" + name + "' has no objective-window test; use scg or lbfgs");
  return o->run(obj, x0, opt);
}

}  // namespace drbench
