// GP-LVM with a GP dynamics prior (Wang, Fleet & Hertzmann 2006; Lawrence's fgplvm gpDynamics)
// and its back-constrained version: the GPLVM-DM and BC-GPLVM-DM baselines of TPSLVM Fig. 5.
#include "framework/core/registry.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/models/dynamics.hpp"

namespace drbench {
namespace {

class DynamicsGplvm final : public GplvmMethod {
 public:
  DynamicsGplvm(std::string method, ParamSet p, bool back_constrained)
      : GplvmMethod(gplvm_settings(p)),
        method_(std::move(method)),
        p_(std::move(p)),
        bc_(back_constrained) {}
  void fit(const FitInput& in) override {
    model_ = GplvmModel(gplvm_settings(p_));
    add_dynamics(model_, p_, in, method_);
    if (bc_) model_.set_back_constraint(make_back_constraint(p_, in.rng));
    model_.fit(in.X, in.dim, in.rng, in.trace);
  }

 private:
  std::string method_;
  ParamSet p_;
  bool bc_;
};

MethodInfo gplvm_dm_info() {
  std::vector<ParamSpec> params = gplvm_param_specs();
  for (auto& s : dynamics_param_specs()) params.push_back(std::move(s));
  MethodInfo m =
      gp_variant_info("gplvm_dm", "GP-LVM with a GP dynamics prior over time-ordered sequences",
                      "Wang, Fleet & Hertzmann, Gaussian process dynamical models, "
                      "NIPS 2005; TPSLVM (Jiang et al. 2014) eq. 26-27",
                      params, false);
  drop_gaussian_prior_default(m.params);
  add_dynamics_memory(m);
  m.make = [](const ParamSet& p) { return std::make_unique<DynamicsGplvm>("gplvm_dm", p, false); };
  return m;
}

MethodInfo bcgplvm_dm_info() {
  std::vector<ParamSpec> params = gp_variant_param_specs("rbf", dynamics_param_specs(), false);
  MethodInfo m = gp_variant_info("bcgplvm_dm", "back-constrained GP-LVM with a GP dynamics prior",
                                 "Lawrence & Quinonero-Candela 2006; Wang, Fleet & Hertzmann "
                                 "2005; TPSLVM (Jiang et al. 2014) Fig. 5",
                                 params, false);
  drop_gaussian_prior_default(m.params);
  add_dynamics_memory(m);
  m.make = [](const ParamSet& p) { return std::make_unique<DynamicsGplvm>("bcgplvm_dm", p, true); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(gplvm_dm_info)
DRBENCH_REGISTER_METHOD(bcgplvm_dm_info)
}  // namespace drbench
