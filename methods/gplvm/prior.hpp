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
