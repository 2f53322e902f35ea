#pragma once
// k(x, x') = variance * x^T x'. With bias and white noise this makes the GP-LVM's maximum
// likelihood solution the PPCA subspace (Lawrence 2005), the reference the tests check against.
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class LinearKernel final : public KernelWithParams {
 public:
  explicit LinearKernel(double variance = 1.0)
      : KernelWithParams({"variance"}, arma::vec{variance}) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<LinearKernel>(*this); }
  std::string name() const override { return "linear"; }

  arma::mat K(const arma::mat& X) const override { return value(0) * (X.t() * X); }
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override {
    return value(0) * (X.t() * X2);
  }
  arma::vec diag(const arma::mat& X) const override {
    return value(0) * arma::sum(arma::square(X), 0).t();
  }
  arma::vec grad_params(const arma::mat& X, const arma::mat& G) const override {
    return {arma::accu(G % K(X))};
  }
  arma::mat grad_X(const arma::mat& X, const arma::mat& G) const override {
    return value(0) * (X * G + X * G.t());
  }
  arma::mat grad_X_cross(const arma::mat&, const arma::mat& X2, const arma::mat& G) const override {
    return value(0) * (X2 * G.t());
  }
  arma::mat grad_X_diag(const arma::mat& X, const arma::vec& g) const override {
    return (2.0 * value(0)) * (X.each_row() % g.t());
  }
};

}  // namespace drbench
