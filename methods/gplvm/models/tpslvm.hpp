#pragma once
// The TPSLVM family's shared Method: a GplvmModel under tps + white with the variant's priors
// (GP dynamics for the _dm variants) and, for the bc variants, a back-constraint.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "framework/core/registry.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/kernels/tps.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/models/dynamics.hpp"

namespace drbench {

// A TPSLVM setting: the GP-LVM's (kernel "tps"), the thin-plate covariance's, and where the
// variant has them, its back-constraint and dynamics prior.
struct TpsLvmSetting {
  GplvmSettings gp;
  TpsConstant constant = TpsConstant::paper;
  double beta = 1.0;  // initial noise precision
  std::optional<BackConstraintSetting> bc;
  std::optional<DynamicsSetting> dynamics;
};

// iterations, optimizer, init, x_prior, beta, learn_beta, constant, oos_iterations,
// out_of_sample, and the sparse likelihood's keys of every GP-LVM (gplvm_keys().sparse_specs():
// the sparse form has its thin-plate knots at the inducing inputs).
struct TpsLvmKeys {
  IntKey iterations;
  ChoiceKey optimizer;
  ChoiceKey init;
  RealKey x_prior;
  RealKey beta;
  BoolKey learn_beta;
  ChoiceKey constant;
  IntKey oos_iterations;
  ChoiceKey out_of_sample;
  std::vector<ParamSpec> specs() const {
    std::vector<ParamSpec> out = {iterations, optimizer, init,           x_prior,
                                  beta,       learn_beta, constant,      oos_iterations,
                                  out_of_sample};
    for (auto& spec : gplvm_keys().sparse_specs()) out.push_back(std::move(spec));
    return out;
  }
  // The GP-LVM and covariance part of a setting (no back-constraint or dynamics).
  TpsLvmSetting operator()(const ParamSet& p) const;
};
const TpsLvmKeys& tpslvm_keys();
// tps (paper or classical constant) + white of variance 1/beta.
std::unique_ptr<Kernel> tpslvm_kernel(const TpsLvmSetting& s);

class TpsLvm final : public GplvmMethod {
 public:
  TpsLvm(std::string method, TpsLvmSetting s);
  void fit(const FitInput& in) override;

 private:
  std::string method_;
  TpsLvmSetting s_;
};

// Descriptor shared by tpslvm, bctpslvm and the dynamics variants: TPSLVM's parameters then
// `own`, latent dimension capped at 4.
MethodInfo tpslvm_family_info(std::string name, std::string summary, std::vector<ParamSpec> own);
// Their budget: the GP-LVM's with the thin-plate kernel's work.
Budget tpslvm_family_budget();

}  // namespace drbench
