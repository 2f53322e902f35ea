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

#include "framework/budget/budget.hpp"
#include "framework/core/method.hpp"
#include "framework/core/registry.hpp"
#include "methods/gplvm/back_constraint.hpp"
#include "methods/gplvm/model.hpp"
#include "methods/gplvm/prior.hpp"

namespace drbench {

// A back-constraint as a setting states it.
struct BackConstraintSetting {
  std::string kind = "rbf";  // rbf | mlp | linear | none
  double kernel_width = 10.0;
  arma::uword hidden = 20;
};
// back_constraint (rbf | mlp | linear | none), kernel_width, hidden. `with_none` false
// for bcgplvm, whose whole point is the back-constraint.
struct BackConstraintKeys {
  ChoiceKey back_constraint;
  RealKey kernel_width;
  IntKey hidden;
  std::vector<ParamSpec> specs() const { return {back_constraint, kernel_width, hidden}; }
  BackConstraintSetting operator()(const ParamSet& p) const {
    return {back_constraint(p), kernel_width(p), arma::uword(hidden(p))};
  }
};
BackConstraintKeys back_constraint_keys(const std::string& def, bool with_none = true);
// nullptr for "none". The MLP's random hidden layer is seeded from rng.
std::shared_ptr<BackConstraint> make_back_constraint(const BackConstraintSetting& s, Rng& rng);

// The weight of a variant's latent prior: the vocabulary's lambda (default 1, log-swept), which
// the variants' papers and earlier settings call alpha. `doc` says what it weighs.
RealKey prior_weight(const std::string& doc);

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
  PriorGplvm(std::string method, GplvmSettings s, BackConstraintSetting bc, PriorBuilder priors,
             bool supervised);
  // The GP-LVM's and the back-constraint's settings read from p (every variant declares them).
  PriorGplvm(std::string method, const ParamSet& p, PriorBuilder priors, bool supervised);
  void fit(const FitInput& in) override;

 private:
  std::string method_;
  GplvmSettings s_;
  BackConstraintSetting bc_;
  PriorBuilder priors_;
  bool supervised_;
};

// m of a sparse approximation (capped at n), 0 for the exact likelihood.
double sparse_inducing(const GplvmSettings& g, const DataShape& s);

// Descriptor fields every variant shares (family, iterative, out_of_sample,
// cost, max_dim n-1).
// The budget of the variants: the GP-LVM's iterations of n^3 (exact) or n m^2 (sparse) work, and
// its n x n (exact) or n x m (sparse) matrices.
Budget gp_variant_budget();
MethodInfo gp_variant_info(std::string name, std::string summary, std::string reference,
                           std::vector<ParamSpec> params, bool supervised);

}  // namespace drbench
