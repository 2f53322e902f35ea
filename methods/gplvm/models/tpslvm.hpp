#pragma once
// The TPSLVM family's shared Method: a GplvmModel under tps + white with the variant's priors
// (GP dynamics for the _dm variants) and, for the bc variants, a back-constraint.
#include <memory>
#include <string>
#include <vector>

#include "framework/core/registry.hpp"
#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/models/common.hpp"

namespace drbench {

std::vector<ParamSpec> tpslvm_param_specs();
GplvmSettings tpslvm_settings(const ParamSet& p);
// tps (paper or classical constant) + white of variance 1/beta.
std::unique_ptr<Kernel> tpslvm_kernel(const ParamSet& p);

class TpsLvm final : public GplvmMethod {
 public:
  TpsLvm(std::string method, ParamSet p, bool back_constrained, bool dynamics = false);
  void fit(const FitInput& in) override;

 private:
  std::string method_;
  ParamSet p_;
  bool back_constrained_;
  bool dynamics_;
};

// Descriptor shared by tpslvm, bctpslvm and the dynamics variants: TPSLVM's parameters then
// `own`, latent dimension capped at 4.
MethodInfo tpslvm_family_info(std::string name, std::string summary, std::vector<ParamSpec> own);

}  // namespace drbench
