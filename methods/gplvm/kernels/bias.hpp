#pragma once
// k(x, x') = variance: a constant offset (theta3 of GPLRF eq. 2).
#include "methods/gplvm/kernels/static.hpp"

namespace drbench {

class BiasKernel final : public StaticKernel {
 public:
  explicit BiasKernel(double variance = 1.0) : StaticKernel(variance, Shared::every_pair) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<BiasKernel>(*this); }
  std::string name() const override { return "bias"; }
};

}  // namespace drbench
