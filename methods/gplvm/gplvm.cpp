// The plain GP-LVM (Lawrence 2005) as used in GPLRF eq. (1)-(4) and TPSLVM's baselines: ML (or
// MAP with a Gaussian prior) latent points under an rbf/mlp/poly/linear + bias + white kernel,
// optimised jointly with the kernel hyperparameters, PPCA-initialised, with TPSLVM Algorithm 1
// as the out-of-sample map (or, out_of_sample: expected, the same search under GPy's expected
// log likelihood, which high-dimensional data need: model.hpp's PointScore). approximation: dtc |
// fitc | vfe replaces the exact likelihood by an inducing-point one (sparse.hpp; `inducing` points
// started at a random subset of the start or, inducing_init: kmeans, at its k-means centres, learnt
// with X unless learn_inducing is false; inducing_jitter keeps K_uu's condition bounded, which
// large fits need: Fashion-MNIST 60,000 did not train without both), for this model and every
// variant built on GplvmModel; new points then go through the predictive map against the sparse
// posterior. As on the exact path, the bits depend on the BLAS thread count only through the order
// of its sums.
#include "framework/core/registry.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/models/common.hpp"

namespace drbench {
namespace {

class Gplvm final : public GplvmMethod {
 public:
  explicit Gplvm(GplvmSettings s) : GplvmMethod(std::move(s)) {}
  void fit(const FitInput& in) override { model_.fit(in.X, in.dim, in.rng, in.trace); }
};

MethodInfo gplvm_info() {
  MethodInfo m = gp_variant_info(
      "gplvm", "Gaussian process latent variable model (ML latent points, joint kernel learning)",
      "Lawrence 2005; GPLRF (Zhong et al. 2010) eq. 1-4; TPSLVM Algorithm 1 for new points",
      gplvm_keys().specs(), false);
  m.make = [](const ParamSet& p) { return std::make_unique<Gplvm>(gplvm_keys()(p)); };
  return m;
}

}  // namespace
DRBENCH_METHOD(gplvm_info, gp_variant_budget())
}  // namespace drbench
