#pragma once
// Linear back-constraint: X = A Y + b 1^T (A is q x d). dL/dA = (dL/dX) Y^T, dL/db = (dL/dX) 1.
#include <armadillo>

#include "methods/gplvm/back_constraint.hpp"

namespace drbench {

// The affine map's W is A.
class LinearBackConstraint final : public AffineBackConstraint {
 public:
  LinearBackConstraint() : AffineBackConstraint("linear back-constraint") {}
  std::string name() const override { return "linear"; }
  void setup(const arma::mat& Y, const arma::mat& X0) override;
  arma::mat latent() const override;
  arma::vec chain(const arma::mat& gX) const override;
  arma::mat map(const arma::mat& Ynew) const override;

 private:
  arma::mat Y_;
};

}  // namespace drbench
