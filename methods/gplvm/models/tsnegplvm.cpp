// tSNEGPLVM (van der Maaten 2009): GP-LVM regularised by lambda KL(P||Q)
// between the data's t-SNE affinities and the latent Student-t affinities;
// lambda is the sweep's alpha.
#include <algorithm>

#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/priors/tsne.hpp"

namespace drbench {
namespace {

const RealKey kAlpha = prior_weight("the t-SNE regulariser lambda KL(P||Q)");
const RealKey kPerplexity = ParamSpec::real("perplexity", 10.0, 1.0, std::nullopt,
                                            "perplexity of the data affinities P (capped at n-1)");

MethodInfo tsnegplvm_info() {
  MethodInfo m =
      gp_variant_info("tsnegplvm",
                      "t-SNE-regularised GP-LVM: GP-LVM + lambda KL(P||Q) keeping local "
                      "structure",
                      "van der Maaten. Preserving local structure in Gaussian process latent "
                      "variable models, "
                      "Benelearn 2009",
                      gp_variant_param_specs("rbf", {kAlpha, kPerplexity}), false);
  m.make = [](const ParamSet& p) {
    const double lambda = kAlpha(p), perp = kPerplexity(p);
    return std::make_unique<PriorGplvm>(
        "tsnegplvm", p,
        [lambda, perp](const FitInput& in) {
          const double cap = double(in.X.n_cols) - 1.0;
          return std::vector<std::shared_ptr<const LatentPrior>>{std::make_shared<TsnePrior>(
              tsne_joint_affinities(in.X, std::min(perp, cap)), lambda)};
        },
        false);
  };
  return m;
}

}  // namespace
// The t-SNE prior holds the dense n x n affinities P and its Student-t kernel whatever the
// likelihood (the sparse approximations save the likelihood's n x n matrices only).
DRBENCH_METHOD(tsnegplvm_info,
               plus_memory(gp_variant_budget(), [](const TaskSize& z) { return 16.0 * z.n * z.n; }))
}  // namespace drbench
