#pragma once
// What the four dynamics variants (gplvm_dm, bcgplvm_dm, tpslvm_dm, bctpslvm_dm) share: the GP
// dynamics prior's parameters and how a fit adds it to a GplvmModel from the training points'
// sequence ids.
#include <string>
#include <vector>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"
#include "framework/core/registry.hpp"
#include "methods/gplvm/model.hpp"

namespace drbench {

// dynamics_kernel_width, dynamics_variance, dynamics_white, dynamics_target, learn_dynamics,
// first_prior.
std::vector<ParamSpec> dynamics_param_specs();

// Adds the GP dynamics prior over the sequences of in.sequence (fixed or learnt hyperparameters
// as the parameters say). Throws MethodError naming the dataset when the data carry no order.
void add_dynamics(GplvmModel& model, const ParamSet& p, const FitInput& in,
                  const std::string& method);

// The dynamics variants replace the Gaussian prior on X by the dynamics prior: x_prior = 0.
void drop_gaussian_prior_default(std::vector<ParamSpec>& specs);

// The dynamics prior is an exact GP over the time steps, with n x n matrices of its own whatever
// the likelihood: the memory estimate adds them.
void add_dynamics_memory(MethodInfo& m);

}  // namespace drbench
