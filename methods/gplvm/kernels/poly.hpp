#pragma once
// k(x, x') = variance * (weight * x^T x' + bias)^degree (GPmat's polyKern; degree fixed, 2 by
// default, the three others learned).
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class PolyKernel final : public KernelWithParams {
 public:
  explicit PolyKernel(int degree = 2, double variance = 1.0, double weight = 1.0,
                      double bias = 1.0);
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<PolyKernel>(*this); }
  std::string name() const override { return "poly"; }
  int degree() const { return degree_; }

  using Kernel::K;  // K(X) = K(X, X)
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;
  void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const override;
  arma::vec diag(const arma::mat& X) const override;

 private:
  int degree_;
};

}  // namespace drbench
