// Back-constrained GP-LVM (Lawrence & Quinonero-Candela 2006): the plain GP-LVM
// with X = g(Y) (RBF kernel regression, MLP or linear map); new points are
// mapped by g.
#include "methods/gplvm/models/common.hpp"

namespace drbench {
namespace {

MethodInfo bcgplvm_info() {
  MethodInfo m = gp_variant_info("bcgplvm",
                                 "back-constrained GP-LVM: latent points a smooth map of "
                                 "the data (rbf/mlp/linear)",
                                 "Lawrence & Quinonero-Candela. Local distance "
                                 "preservation in the GP-LVM through back "
                                 "constraints, ICML 2006",
                                 gp_variant_param_specs("rbf", {}, false), false);
  m.make = [](const ParamSet& p) {
    return std::make_unique<PriorGplvm>(
        "bcgplvm", p,
        [](const FitInput&) { return std::vector<std::shared_ptr<const LatentPrior>>{}; }, false);
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(bcgplvm_info, gp_variant_budget())
}  // namespace drbench
