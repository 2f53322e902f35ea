#pragma once
// The arc-sine ("MLP", Williams 1998) covariance as in GPmat's mlpKern:
//   k(x, x') = variance * asin( (w x^T x' + b) / sqrt((w x^T x + b + 1)(w x'^T x' + b + 1)) )
// with w = weight variance and b = bias variance (defaults 10, 10 as in GPmat).
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class MlpKernel final : public KernelWithParams {
 public:
  explicit MlpKernel(double variance = 1.0, double weight = 10.0, double bias = 10.0)
      : KernelWithParams({"variance", "weight", "bias"}, arma::vec{variance, weight, bias}) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<MlpKernel>(*this); }
  std::string name() const override { return "mlp"; }

  using Kernel::K;  // K(X) = K(X, X)
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;
  void cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                       arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const override;
  arma::vec diag(const arma::mat& X) const override;
  void diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                      arma::mat& g_X) const override;
  // X2 = X: both index roles share v, so one pass serves both.
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                 arma::mat& g_X) const override;

 private:
  struct Parts {
    arma::vec v1, v2;  // w |x|^2 + b + 1 for the columns of X and X2
    arma::mat D;       // sqrt(v1 v2^T)
    arma::mat Z;       // (w X^T X2 + b) / D, the asin argument
  };
  Parts parts(const arma::mat& X, const arma::mat& X2) const;
};

}  // namespace drbench
