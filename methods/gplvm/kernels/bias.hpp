#pragma once
// k(x, x') = variance: a constant offset (theta3 of GPLRF eq. 2).
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class BiasKernel final : public KernelWithParams {
 public:
  explicit BiasKernel(double variance = 1.0) : KernelWithParams({"variance"}, arma::vec{variance}) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<BiasKernel>(*this); }
  std::string name() const override { return "bias"; }

  arma::mat K(const arma::mat& X) const override {
    return arma::mat(X.n_cols, X.n_cols, arma::fill::value(value(0)));
  }
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override {
    return arma::mat(X.n_cols, X2.n_cols, arma::fill::value(value(0)));
  }
  void add_K(const arma::mat&, arma::mat& K) const override { K += value(0); }
  arma::vec diag(const arma::mat& X) const override {
    return arma::vec(X.n_cols, arma::fill::value(value(0)));
  }
  arma::vec grad_params(const arma::mat&, const arma::mat& G) const override {
    return {value(0) * arma::accu(G)};
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
