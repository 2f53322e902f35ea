#pragma once
// k(x_i, x_j) = variance * delta_ij: observation noise. GPLRF eq. (2) writes it as delta_ij/theta4,
// so theta4 = 1 / variance. Distinct points never share noise, so the cross-covariance is zero.
#include <cmath>

#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class WhiteKernel final : public KernelWithParams {
 public:
  explicit WhiteKernel(double variance = std::exp(-2.0))
      : KernelWithParams({"variance"}, arma::vec{variance}) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<WhiteKernel>(*this); }
  std::string name() const override { return "white"; }

  arma::mat K(const arma::mat& X) const override {
    return value(0) * arma::eye(X.n_cols, X.n_cols);
  }
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override {
    return arma::zeros(X.n_cols, X2.n_cols);
  }
  void add_K(const arma::mat&, arma::mat& K) const override { K.diag() += value(0); }
  arma::vec diag(const arma::mat& X) const override {
    return arma::vec(X.n_cols, arma::fill::value(value(0)));
  }
  arma::vec grad_params(const arma::mat&, const arma::mat& G) const override {
    return {value(0) * arma::trace(G)};
  }
  arma::mat grad_X(const arma::mat& X, const arma::mat&) const override {
    return arma::zeros(X.n_rows, X.n_cols);
  }
  arma::mat grad_X_cross(const arma::mat& X, const arma::mat&, const arma::mat&) const override {
    return arma::zeros(X.n_rows, X.n_cols);
  }
  arma::mat grad_X_diag(const arma::mat& X, const arma::vec&) const override {
    return arma::zeros(X.n_rows, X.n_cols);
  }
};

}  // namespace drbench
