// GPLRF (Zhong et al. 2010): GP-LVM with the label graph's GMRF prior alpha/2
// tr(X L X^T) (eq. 9), new points through the RBF back-constraint (the paper's
// out-of-sample section).
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/priors/gmrf.hpp"

namespace drbench {
namespace {

const RealKey kAlpha =
    prior_weight("the GMRF prior lambda/2 tr(X L X^T) (the paper's alpha: 1e-5..1e5)");

MethodInfo gplrf_info() {
  MethodInfo m =
      gp_variant_info("gplrf",
                      "Gaussian process latent random field: GP-LVM + label-graph GMRF prior "
                      "(supervised)",
                      "Zhong, Li, Yeung, Hou, Liu. Gaussian Process Latent Random Field, AAAI "
                      "2010, eq. 5-9",
                      gp_variant_param_specs("rbf", {kAlpha}), true);
  m.make = [](const ParamSet& p) {
    const double alpha = kAlpha(p);
    return std::make_unique<PriorGplvm>(
        "gplrf", p,
        [alpha](const FitInput& in) {
          return std::vector<std::shared_ptr<const LatentPrior>>{
              std::make_shared<GmrfPrior>(*in.labels, in.n_classes, alpha)};
        },
        true);
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(gplrf_info, gp_variant_budget())
}  // namespace drbench
