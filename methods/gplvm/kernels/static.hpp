#pragma once
// Static kernels k(x, x') = variance * c(x, x'), where c does not depend on where the points lie
// (GPy's Static): a subclass states only which pairs share the variance, every pair (bias) or a
// point with itself (white); the matrix, diagonal, cross-covariance and every gradient come from
// this base. The gradients with respect to X are zero, and with respect to log variance
// tr(G^T dK/dlog variance) = variance * sum(G .* C).
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class StaticKernel : public KernelWithParams {
 public:
  arma::mat K(const arma::mat& X) const override;
  // Distinct points: a bias still covaries, white noise never does.
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;
  void add_K(const arma::mat& X, arma::mat& K) const override;
  arma::vec diag(const arma::mat& X) const override;
  arma::vec grad_params(const arma::mat& X, const arma::mat& G) const override;
  arma::mat grad_X(const arma::mat& X, const arma::mat& G) const override;
  arma::mat grad_X_cross(const arma::mat& X, const arma::mat& X2,
                         const arma::mat& G) const override;
  arma::mat grad_X_diag(const arma::mat& X, const arma::vec& g) const override;

 protected:
  enum class Shared { every_pair, same_point };
  StaticKernel(double variance, Shared shared)
      : KernelWithParams({"variance"}, arma::vec{variance}), shared_(shared) {}

 private:
  Shared shared_;
};

}  // namespace drbench
