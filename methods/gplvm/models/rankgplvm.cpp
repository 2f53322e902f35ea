// rankGPLVM (Geiger, Urtasun & Darrell 2009): GP-LVM with the rank prior
// alpha sum_i ln(1 + s_i^2/beta^2) on the singular values of the centred latent
// matrix. The paper's recipe starts from the observations (init: pca, dims >= D).
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/priors/rank.hpp"

namespace drbench {
namespace {

const RealKey kAlpha =
    prior_weight("the rank prior lambda sum ln(1 + s_i^2/beta^2) (the paper's alpha)");
const RealKey kRankBeta =
    ParamSpec::real("rank_beta", 1.0, 0.0, std::nullopt,
                    "scale beta of the singular values in the rank prior", true);

MethodInfo rankgplvm_info() {
  MethodInfo m =
      gp_variant_info("rankgplvm",
                      "rank-prior GP-LVM: GP-LVM + smooth penalty on the latent singular "
                      "values",
                      "Geiger, Urtasun & Darrell. Rank priors for continuous non-linear "
                      "dimensionality reduction, "
                      "CVPR 2009",
                      gp_variant_param_specs("rbf", {kAlpha, kRankBeta}), false);
  m.make = [](const ParamSet& p) {
    const double alpha = kAlpha(p), beta = kRankBeta(p);
    return std::make_unique<PriorGplvm>(
        "rankgplvm", p,
        [alpha, beta](const FitInput&) {
          return std::vector<std::shared_ptr<const LatentPrior>>{
              std::make_shared<RankPrior>(alpha, beta)};
        },
        false);
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(rankgplvm_info, gp_variant_budget())
}  // namespace drbench
