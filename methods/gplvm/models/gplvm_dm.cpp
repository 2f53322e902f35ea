// GP-LVM with a GP dynamics prior (Wang, Fleet & Hertzmann 2006; Lawrence's fgplvm gpDynamics)
// and its back-constrained version: the GPLVM-DM and BC-GPLVM-DM baselines of TPSLVM Fig. 5.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/registry.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/models/dynamics.hpp"

namespace drbench {
namespace {

class DynamicsGplvm final : public GplvmMethod {
 public:
  // bc: the back-constraint, or nullopt for the plain GPLVM-DM.
  DynamicsGplvm(std::string method, GplvmSettings s, DynamicsSetting d,
                std::optional<BackConstraintSetting> bc)
      : GplvmMethod(s),
        method_(std::move(method)),
        s_(std::move(s)),
        d_(std::move(d)),
        bc_(std::move(bc)) {}
  void fit(const FitInput& in) override {
    model_ = GplvmModel(s_);
    add_dynamics(model_, d_, in, method_);
    if (bc_) model_.set_back_constraint(make_back_constraint(*bc_, in.rng));
    model_.fit(in.X, in.dim, in.rng, in.trace);
  }

 private:
  std::string method_;
  GplvmSettings s_;
  DynamicsSetting d_;
  std::optional<BackConstraintSetting> bc_;
};

// Both descriptors: the GP-LVM's (and, back-constrained, the RBF back-constraint's) parameters and
// the dynamics prior's, no Gaussian prior on X by default.
MethodInfo dynamics_variant_info(const std::string& name, std::string summary,
                                 std::string reference, std::vector<ParamSpec> params,
                                 bool back_constrained) {
  MethodInfo m =
      gp_variant_info(name, std::move(summary), std::move(reference), std::move(params), false);
  drop_gaussian_prior_default(m.params);
  m.make = [name, back_constrained](const ParamSet& p) {
    std::optional<BackConstraintSetting> bc;
    if (back_constrained) bc = back_constraint_keys("rbf", false)(p);
    return std::make_unique<DynamicsGplvm>(name, gplvm_keys()(p), dynamics_keys()(p), bc);
  };
  return m;
}

MethodInfo gplvm_dm_info() {
  std::vector<ParamSpec> params = gplvm_keys().specs();
  for (auto& s : dynamics_keys().specs()) params.push_back(std::move(s));
  return dynamics_variant_info("gplvm_dm",
                               "GP-LVM with a GP dynamics prior over time-ordered sequences",
                               "Wang, Fleet & Hertzmann, Gaussian process dynamical models, "
                               "NIPS 2005; TPSLVM (Jiang et al. 2014) eq. 26-27",
                               params, false);
}

MethodInfo bcgplvm_dm_info() {
  return dynamics_variant_info("bcgplvm_dm", "back-constrained GP-LVM with a GP dynamics prior",
                               "Lawrence & Quinonero-Candela 2006; Wang, Fleet & Hertzmann "
                               "2005; TPSLVM (Jiang et al. 2014) Fig. 5",
                               gp_variant_param_specs("rbf", dynamics_keys().specs(), false), true);
}

}  // namespace
// Both budgets: the GP-LVM's and the dynamics' memory.
DRBENCH_METHOD(gplvm_dm_info, with_dynamics(gp_variant_budget()))
DRBENCH_METHOD(bcgplvm_dm_info, with_dynamics(gp_variant_budget()))
}  // namespace drbench
