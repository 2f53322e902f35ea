#pragma once
// A differentiable objective over an unconstrained parameter vector: what every optimiser in
// framework/optim/ minimises and what the gradient checker verifies.
#include <armadillo>
#include <functional>
#include <utility>

namespace drbench {

class Objective {
 public:
  virtual ~Objective() = default;
  // f(x). When grad is non-null it is also set to df/dx (same size as x). Value-only calls may be
  // cheaper (the GP-LVM skips the inverse), so optimisers ask for the gradient only when they use
  // it. An objective that cannot be evaluated at x (e.g. a covariance that stays singular) returns
  // +inf; optimisers then treat the step as failed.
  virtual double evaluate(const arma::vec& x, arma::vec* grad) = 0;
  // The gradient alone, for optimisers that need no value at x ("momentum"). Objectives whose
  // value costs more than their gradient override it.
  virtual void gradient(const arma::vec& x, arma::vec& grad) { evaluate(x, &grad); }
};

// Adapts a lambda, for tests and small problems.
class FunctionObjective final : public Objective {
 public:
  using Fn = std::function<double(const arma::vec&, arma::vec*)>;
  explicit FunctionObjective(Fn fn) : fn_(std::move(fn)) {}
  double evaluate(const arma::vec& x, arma::vec* grad) override { return fn_(x, grad); }

 private:
  Fn fn_;
};

}  // namespace drbench
