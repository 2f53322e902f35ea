#pragma once
// k(x, x') = variance * exp(-inv_width / 2 * |x - x'|^2): theta1 and theta2 of GPLRF eq. (2).
#include "methods/gplvm/kernels/stationary.hpp"

namespace drbench {

class RbfKernel final : public StationaryKernel {
 public:
  explicit RbfKernel(double variance = 1.0, double inv_width = 1.0)
      : StationaryKernel(variance, inv_width) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<RbfKernel>(*this); }
  std::string name() const override { return "rbf"; }

 protected:
  void profile(arma::mat& S) const override { S = arma::exp(-0.5 * S); }
  arma::mat profile_derivative(const arma::mat&, const arma::mat& F) const override {
    return -0.5 * F;
  }
  double profile_at_zero() const override { return 1.0; }
};

}  // namespace drbench
