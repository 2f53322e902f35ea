#pragma once
// k(x_i, x_j) = variance * delta_ij: observation noise. GPLRF eq. (2) writes it as delta_ij/theta4,
// so theta4 = 1 / variance. Distinct points never share noise, so the cross-covariance is zero.
#include <cmath>

#include "methods/gplvm/kernels/static.hpp"

namespace drbench {

class WhiteKernel final : public StaticKernel {
 public:
  explicit WhiteKernel(double variance = std::exp(-2.0))
      : StaticKernel(variance, Shared::same_point) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<WhiteKernel>(*this); }
  std::string name() const override { return "white"; }
};

}  // namespace drbench
