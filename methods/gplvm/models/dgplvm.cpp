// DGPLVM (Urtasun & Darrell 2007): GP-LVM with the GDA discriminative prior
// exp(-1/(sigma_d^2 J)), J = tr(S_w^-1 S_b). Weight alpha = 1/sigma_d^2 so that
// the GPLRF sweep of alpha covers it. The latent dimension is capped at C-1,
// the rank of S_b.
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/priors/discriminative.hpp"

namespace drbench {
namespace {

const RealKey kAlpha =
    prior_weight("the discriminative prior 1/(sigma_d^2 J): lambda = 1/sigma_d^2");
const RealKey kRidge = keywords::ridge(1e-8, 0.0, std::nullopt, false,
                                       "added to the within-class scatter's diagonal to keep it "
                                       "invertible");

MethodInfo dgplvm_info() {
  MethodInfo m =
      gp_variant_info("dgplvm",
                      "discriminative GP-LVM: GP-LVM + GDA-criterion prior, latent dim <= C-1 "
                      "(supervised)",
                      "Urtasun & Darrell, Discriminative Gaussian process latent variable "
                      "models, ICML 2007",
                      gp_variant_param_specs("rbf", {kAlpha, kRidge}), true);
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return s.n_classes > 1 ? arma::uword(s.n_classes - 1) : arma::uword(0);
  };
  m.make = [](const ParamSet& p) {
    const double alpha = kAlpha(p), ridge = kRidge(p);
    return std::make_unique<PriorGplvm>(
        "dgplvm", p,
        [alpha, ridge](const FitInput& in) {
          if (in.dim + 1 > in.n_classes)
            throw MethodError("dgplvm: latent dimension " + std::to_string(in.dim) +
                              " exceeds C-1 = " + std::to_string(in.n_classes - 1) +
                              " (the between-class scatter has rank C-1; fix: lower 'dims' "
                              "or "
                              "use gplrf)");
          return std::vector<std::shared_ptr<const LatentPrior>>{
              std::make_shared<DiscriminativePrior>(*in.labels, in.n_classes,
                                                    1.0 / std::sqrt(alpha), ridge)};
        },
        true);
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(dgplvm_info, gp_variant_budget())
}  // namespace drbench
