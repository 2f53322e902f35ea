#pragma once
// Priors on the latent points, added to the GP-LVM's negative log-likelihood (MAP estimation).
// Each is a separate piece with its own value and gradient (GPLRF's GMRF prior, DGPLVM's
// discriminative prior, ... implement this interface), so they compose freely.
#include <armadillo>
#include <string>

#include "framework/core/error.hpp"

namespace drbench {

class LatentPrior {
 public:
  virtual ~LatentPrior() = default;
  virtual std::string name() const = 0;
  // -log p(X) up to an additive constant, X is q x n (one column per point). When gX is non-null
  // it is SET (resized to q x n) to the gradient of that value with respect to X.
  virtual double value_grad(const arma::mat& X, arma::mat* gX) const = 0;
};

// A prior that owns hyperparameters the GP objective may learn with X (a GP dynamics prior's
// kernel): they join the objective's parameter vector as one more block after the kernel's.
class TunablePrior : public LatentPrior {
 public:
  virtual arma::uword n_params() const = 0;
  virtual arma::vec params() const = 0;  // log values
  virtual void set_params(const arma::vec& log_values) = 0;
  // value_grad, plus (when gp is non-null) the gradient with respect to params(), SET.
  virtual double value_grad_params(const arma::mat& X, arma::mat* gX, arma::vec* gp) const = 0;
  double value_grad(const arma::mat& X, arma::mat* gX) const override {
    return value_grad_params(X, gX, nullptr);
  }
};

// Isotropic Gaussian prior x_i ~ N(0, I / precision): precision/2 * ||X||_F^2. With precision 1
// this is the standard GP-LVM prior of Lawrence (2005) that keeps latent points from drifting.
class GaussianPrior final : public LatentPrior {
 public:
  explicit GaussianPrior(double precision = 1.0) : precision_(precision) {
    if (!(precision > 0))
      throw MethodError("Gaussian latent prior: precision must be > 0, got " +
                        std::to_string(precision));
  }
  std::string name() const override { return "gaussian"; }
  double value_grad(const arma::mat& X, arma::mat* gX) const override {
    if (gX) *gX = precision_ * X;
    return 0.5 * precision_ * arma::accu(arma::square(X));
  }
  double precision() const { return precision_; }

 private:
  double precision_;
};

}  // namespace drbench
