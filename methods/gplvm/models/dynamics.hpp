#pragma once
// What the four dynamics variants (gplvm_dm, bcgplvm_dm, tpslvm_dm, bctpslvm_dm) share: the GP
// dynamics prior's parameters and how a fit adds it to a GplvmModel from the training points'
// sequence ids.
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/method.hpp"
#include "framework/core/params.hpp"
#include "framework/core/registry.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/priors/dynamics.hpp"

namespace drbench {

// A GP dynamics prior as a setting states it.
struct DynamicsSetting {
  GpDynamicsSettings prior;
  bool learn = false;  // learn_dynamics: tune the dynamics kernel with X
};
// dynamics_kernel_width, dynamics_variance, dynamics_white, dynamics_target, learn_dynamics,
// first_prior.
struct DynamicsKeys {
  RealKey dynamics_kernel_width;
  RealKey dynamics_variance;
  RealKey dynamics_white;
  ChoiceKey dynamics_target;
  BoolKey learn_dynamics;
  RealKey first_prior;
  std::vector<ParamSpec> specs() const {
    return {dynamics_kernel_width, dynamics_variance, dynamics_white,
            dynamics_target,       learn_dynamics,    first_prior};
  }
  DynamicsSetting operator()(const ParamSet& p) const;
};
const DynamicsKeys& dynamics_keys();

// Adds the GP dynamics prior over the sequences of in.sequence (fixed or learnt hyperparameters
// as the setting says). Throws MethodError naming the dataset when the data carry no order.
void add_dynamics(GplvmModel& model, const DynamicsSetting& s, const FitInput& in,
                  const std::string& method);

// The dynamics variants replace the Gaussian prior on X by the dynamics prior: x_prior = 0.
void drop_gaussian_prior_default(std::vector<ParamSpec>& specs);

// The dynamics prior is an exact GP over the time steps, with n x n matrices of its own whatever
// the likelihood: the memory estimate adds them.
Budget with_dynamics(Budget b);

}  // namespace drbench
