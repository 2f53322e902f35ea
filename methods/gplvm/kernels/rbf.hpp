#pragma once
// k(x, x') = variance * exp(-inv_width / 2 * |x - x'|^2): theta1 and theta2 of GPLRF eq. (2).
#include "methods/gplvm/kernels/kernel.hpp"

namespace drbench {

class RbfKernel final : public KernelWithParams {
 public:
  explicit RbfKernel(double variance = 1.0, double inv_width = 1.0)
      : KernelWithParams({"variance", "inv_width"}, arma::vec{variance, inv_width}) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<RbfKernel>(*this); }
  std::string name() const override { return "rbf"; }

  arma::mat K(const arma::mat& X) const override;
  arma::mat K(const arma::mat& X, const arma::mat& X2) const override;
  arma::vec diag(const arma::mat& X) const override;
  arma::vec grad_params(const arma::mat& X, const arma::mat& G) const override;
  arma::mat grad_X(const arma::mat& X, const arma::mat& G) const override;
  void gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                 arma::mat& g_X) const override;
  arma::mat grad_X_cross(const arma::mat& X, const arma::mat& X2,
                         const arma::mat& G) const override;
  arma::mat grad_X_diag(const arma::mat& X, const arma::vec& g) const override;

 private:
  // K(X) for the last X it was computed at: the GP-LVM asks for K(X) and then for the gradients
  // at the same X, and recomputing the N^2 exponentials would cost about a tenth of an
  // evaluation. Kernels are owned by one task's model, never shared between threads.
  const arma::mat& cached_K(const arma::mat& X) const;
  mutable arma::mat cache_X_, cache_K_;
  mutable arma::vec cache_params_;
};

}  // namespace drbench
