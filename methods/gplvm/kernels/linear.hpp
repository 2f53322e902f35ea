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

  using Kernel::K;  // K(X) = K(X, X)
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override {
    return value(0) * (X.t() * X2);
  }
  // dK_ij/dx_i = variance x2_j, dK_ij/dx2_j = variance x_i.
  void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const override {
    g_params = {arma::accu(G % K(X, X2))};
    g_X = value(0) * (X2 * G.t());
    if (g_X2) *g_X2 = value(0) * (X * G);
  }
  // X2 = X in one scaled sum, as the fitted linear GP-LVMs have always computed it.
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                 arma::mat& g_X) const override {
    g_params = {arma::accu(G % K(X))};
    g_X = value(0) * (X * G + X * G.t());
  }
  arma::vec diag(const arma::mat& X) const override {
    return value(0) * arma::sum(arma::square(X), 0).t();
  }
};

}  // namespace drbench
