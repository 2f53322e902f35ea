#pragma once
// RBF kernel-regression back-constraint (GPLRF's out-of-sample section; Lawrence & Quinonero-
// Candela 2006): x_j(y) = sum_m beta_jm k(y, y_m) + b_j with k(y, y') = exp(-gamma/2 |y - y'|^2).
// On the training set X = B K + b 1^T, so dL/dB = (dL/dX) K (K symmetric) and dL/db = (dL/dX) 1.
// The bias is GPmat's (kbr mapping): without it a small gamma, where K is nearly the all-ones
// matrix, could only express centred latent points through huge, cancelling weights.
#include <armadillo>

#include "methods/gplvm/back_constraint.hpp"

namespace drbench {

// The affine map's W is B (q x n weights), b its bias.
class RbfBackConstraint final : public AffineBackConstraint {
 public:
  explicit RbfBackConstraint(double gamma);
  std::string name() const override { return "rbf"; }
  void setup(const arma::mat& Y, const arma::mat& X0) override;
  arma::mat latent() const override;
  arma::vec chain(const arma::mat& gX) const override;
  arma::mat map(const arma::mat& Ynew) const override;

  double gamma() const { return gamma_; }

 private:
  arma::mat kernel(const arma::mat& A, const arma::mat& B) const;

  double gamma_;
  arma::mat Y_;  // d x n training data (centred)
  arma::mat K_;  // n x n
};

}  // namespace drbench
