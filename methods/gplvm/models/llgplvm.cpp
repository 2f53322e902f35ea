// LL-GPLVM (Urtasun et al. 2008): GP-LVM with the locally linear prior that
// keeps the data's LLE reconstruction weights, alpha/2 tr(X M X^T) with alpha =
// 1/sigma^2.
#include <cmath>

#include "framework/core/keywords.hpp"
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/priors/locally_linear.hpp"

namespace drbench {
namespace {

const RealKey kAlpha = prior_weight("the prior tr(X M X^T)/(2 sigma^2): lambda = 1/sigma^2");
const IntKey kNeighbours =
    keywords::neighbours(7, 1, 100000, "the LLE reconstruction in the data space");
const RealKey kLleReg = keywords::ridge(1e-3, 0.0, std::nullopt, false,
                                        "of the LLE reconstruction, times the trace of each local "
                                        "Gram matrix")
                            .with(keywords::formerly("lle_reg"));

MethodInfo llgplvm_info() {
  MethodInfo m = gp_variant_info(
      "llgplvm", "locally linear GP-LVM: GP-LVM + prior keeping the data's LLE weights",
      "Urtasun, Fleet, Geiger, Popovic, Darrell, Lawrence. "
      "Topologically-constrained latent "
      "variable models, ICML 2008",
      gp_variant_param_specs("rbf", {kAlpha, kNeighbours, kLleReg}), false);
  m.make = [](const ParamSet& p) {
    const double alpha = kAlpha(p), reg = kLleReg(p);
    const auto k = arma::uword(kNeighbours(p));
    return std::make_unique<PriorGplvm>(
        "llgplvm", p,
        [alpha, reg, k](const FitInput& in) {
          return std::vector<std::shared_ptr<const LatentPrior>>{
              std::make_shared<LocallyLinearPrior>(lle_weights(in.X, k, reg),
                                                   1.0 / std::sqrt(alpha))};
        },
        false);
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(llgplvm_info, gp_variant_budget())
}  // namespace drbench
