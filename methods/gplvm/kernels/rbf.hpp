#pragma once
// k(x, x') = variance * exp(-inv_width / 2 * |x - x'|^2): theta1 and theta2 of GPLRF eq. (2).
#include "framework/linalg/exp_block.hpp"
#include "methods/gplvm/kernels/stationary.hpp"

namespace drbench {

class RbfKernel final : public StationaryProfile<RbfKernel> {
 public:
  using StationaryProfile::StationaryProfile;
  static constexpr const char* kName = "rbf";

 protected:
  // exp four lanes at a time (glibc's scalar exp was a tenth of a sparse evaluation), within
  // 1 ulp of std::exp.
  void profile(const double* s, double* f, arma::uword n) const override {
    exp_block(s, f, n, -0.5);
  }
  void profile_derivative(const double*, const double* f, double* df,
                          arma::uword n) const override {
    for (arma::uword i = 0; i < n; ++i) df[i] = -0.5 * f[i];
  }
  bool derivative_scales_profile(double& c) const override {
    c = -0.5;
    return true;
  }
};

}  // namespace drbench
