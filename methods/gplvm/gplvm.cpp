// The plain GP-LVM (Lawrence 2005) as used in GPLRF eq. (1)-(4) and TPSLVM's baselines: ML (or
// MAP with a Gaussian prior) latent points under an rbf/mlp/poly/linear + bias + white kernel,
// optimised jointly with the kernel hyperparameters, PPCA-initialised, with TPSLVM Algorithm 1
// as the out-of-sample map.
#include "framework/core/registry.hpp"
#include "methods/gplvm/model.hpp"

namespace drbench {
namespace {

class Gplvm final : public Method {
 public:
  explicit Gplvm(GplvmSettings s) : model_(std::move(s)) {}
  void fit(const FitInput& in) override { model_.fit(in.X, in.dim, in.rng, in.trace); }
  arma::mat embedding() const override { return model_.latent(); }
  arma::mat transform(const arma::mat& Xnew) const override { return model_.transform(Xnew); }

 private:
  GplvmModel model_;
};

MethodInfo gplvm_info() {
  MethodInfo m;
  m.name = "gplvm";
  m.family = "gplvm";
  m.summary = "Gaussian process latent variable model (ML latent points, joint kernel learning)";
  m.reference = "Lawrence 2005; GPLRF (Zhong et al. 2010) eq. 1-4; TPSLVM Algorithm 1 for new points";
  m.params = gplvm_param_specs();
  m.iterative = true;
  m.out_of_sample = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return s.n > 1 ? s.n - 1 : arma::uword(0);
  };
  // One Cholesky + inverse per evaluation and about two evaluations per SCG iteration.
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword) {
    const double n = double(s.n);
    return double(p.integer("iterations")) * 2.0 * (n * n * n + 3.0 * n * n * double(s.d));
  };
  m.make = [](const ParamSet& p) { return std::make_unique<Gplvm>(gplvm_settings(p)); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(gplvm_info)
}  // namespace drbench
