#pragma once
// What the GP-LVM variants of the GPLRF comparison share: a back-constraint
// chosen by parameter (the GPLRF protocol maps new points through an RBF
// back-constraint for every GP-LVM method, with its width swept), and one
// Method class that fits a GplvmModel with the variant's latent priors. Each
// variant's .cpp only declares its parameters and builds its priors.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "framework/core/method.hpp"
#include "framework/core/registry.hpp"
#include "methods/gplvm/back_constraint.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/prior.hpp"

namespace drbench {

// back_constraint (rbf | mlp | linear | none), kernel_width, hidden. `with_none` false
// for bcgplvm, whose whole point is the back-constraint.
std::vector<ParamSpec> back_constraint_param_specs(const std::string& def, bool with_none = true);
// nullptr for "none". The MLP's random hidden layer is seeded from rng.
std::shared_ptr<BackConstraint> make_back_constraint(const ParamSet& p, Rng& rng);

// The GP-LVM family's parameters, the back-constraint's, then the variant's
// own.
std::vector<ParamSpec> gp_variant_param_specs(const std::string& def_bc, std::vector<ParamSpec> own,
                                              bool bc_none = true);

// A method whose fit is a GplvmModel: the model's latent points are the embedding and its
// out-of-sample map is transform.
class GplvmMethod : public Method {
 public:
  arma::mat embedding() const override { return model_.latent(); }
  arma::mat transform(const arma::mat& Xnew) const override { return model_.transform(Xnew); }
  const GplvmModel& model() const { return model_; }

 protected:
  explicit GplvmMethod(GplvmSettings s) : model_(std::move(s)) {}
  GplvmModel model_;
};

using PriorBuilder =
    std::function<std::vector<std::shared_ptr<const LatentPrior>>(const FitInput&)>;

class PriorGplvm final : public GplvmMethod {
 public:
  PriorGplvm(std::string method, ParamSet p, PriorBuilder priors, bool supervised);
  void fit(const FitInput& in) override;

 private:
  std::string method_;
  ParamSet p_;
  PriorBuilder priors_;
  bool supervised_;
};

// m of a sparse approximation (capped at n), 0 for the exact likelihood or a model without one.
double sparse_inducing(const ParamSet& p, const DataShape& s);

// Descriptor fields every variant shares (family, iterative, out_of_sample,
// cost, max_dim n-1).
MethodInfo gp_variant_info(std::string name, std::string summary, std::string reference,
                           std::vector<ParamSpec> params, bool supervised);

}  // namespace drbench
