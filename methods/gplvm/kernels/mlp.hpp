#pragma once
// The arc-sine ("MLP", Williams 1998) covariance as in GPmat's mlpKern:
//   k(x, x') = variance * asin( (w x^T x' + b) / sqrt((w x^T x + b + 1)(w x'^T x' + b + 1)) )
// with w = weight variance and b = bias variance (defaults 10, 10 as in GPmat).
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class MlpKernel final : public FusedGradientsKernel {
 public:
  explicit MlpKernel(double variance = 1.0, double weight = 10.0, double bias = 10.0)
      : FusedGradientsKernel({"variance", "weight", "bias"}, arma::vec{variance, weight, bias}) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<MlpKernel>(*this); }
  std::string name() const override { return "mlp"; }

  arma::mat K(const arma::mat& X) const override { return K(X, X); }
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;
  arma::vec diag(const arma::mat& X) const override;
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                 arma::mat& g_X) const override;
  arma::mat grad_X_cross(const arma::mat& X, const arma::mat& X2,
                         const arma::mat& G) const override;
  arma::mat grad_X_diag(const arma::mat& X, const arma::vec& g) const override;

 private:
  struct Parts {
    arma::vec v1, v2;  // w |x|^2 + b + 1 for the columns of X and X2
    arma::mat D;       // sqrt(v1 v2^T)
    arma::mat Z;       // (w X^T X2 + b) / D, the asin argument
  };
  Parts parts(const arma::mat& X, const arma::mat& X2) const;
};

}  // namespace drbench
