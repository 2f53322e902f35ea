#include "methods/gplvm/models/dynamics.hpp"

#include "framework/core/error.hpp"
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/priors/dynamics.hpp"

namespace drbench {

const DynamicsKeys& dynamics_keys() {
  static const DynamicsKeys keys{
      ParamSpec::real("dynamics_kernel_width", 10.0, 0.0, std::nullopt,
                      "sigma of the dynamics GP's RBF kernel exp(-r^2/(2 sigma^2)); 10 is the "
                      "TPSLVM authors' inverse width 0.01",
                      true),
      ParamSpec::real("dynamics_variance", 0.01, 0.0, std::nullopt,
                      "variance of the dynamics GP's RBF kernel", true),
      ParamSpec::real("dynamics_white", 1e-6, 0.0, std::nullopt,
                      "white-noise variance of the dynamics GP", true),
      ParamSpec::choice("dynamics_target", "difference", {"difference", "position"},
                        "what the dynamics GP predicts from x_{t-1}: x_t - x_{t-1} (Lawrence's "
                        "gpDynamics default) or x_t (GPDM)"),
      ParamSpec::boolean("learn_dynamics", false,
                         "learn the dynamics kernel's hyperparameters with X (fixed by default)"),
      ParamSpec::real("first_prior", 1.0, 0.0, std::nullopt,
                      "precision of the Gaussian prior on each sequence's first latent point"),
  };
  return keys;
}

DynamicsSetting DynamicsKeys::operator()(const ParamSet& p) const {
  DynamicsSetting d;
  const double w = dynamics_kernel_width(p);
  d.prior.inv_width = 1.0 / (w * w);
  d.prior.variance = dynamics_variance(p);
  d.prior.white = dynamics_white(p);
  d.prior.differences = dynamics_target(p) == "difference";
  d.prior.first_precision = first_prior(p);
  d.learn = learn_dynamics(p);
  return d;
}

void add_dynamics(GplvmModel& model, const DynamicsSetting& d, const FitInput& in,
                  const std::string& method) {
  if (in.sequence == nullptr || in.sequence->is_empty())
    throw MethodError(method + ": dataset '" + (in.dataset.empty() ? "?" : in.dataset) +
                      "' has no time order (fix: give it an HDF5 'sequence' column, or "
                      "'sequences: classes' in its config entry when each class is one sequence "
                      "in file order, e.g. COIL-20's poses)");
  if (in.sequence->n_elem != in.X.n_cols)
    throw Error("internal: " + method + " got " + std::to_string(in.sequence->n_elem) +
                " sequence ids for " + std::to_string(in.X.n_cols) + " points");
  auto prior = std::make_shared<GpDynamicsPrior>(sequences_from_ids(*in.sequence), d.prior);
  if (d.learn)
    model.add_tuned_prior(prior);
  else
    model.add_prior(prior);
}

void drop_gaussian_prior_default(std::vector<ParamSpec>& specs) {
  for (auto& s : specs)
    if (s.name == "x_prior") {
      s.default_value = 0.0;
      s.doc += " (dynamics variants: 0, the dynamics prior replaces it)";
    }
}

Budget with_dynamics(Budget b) {
  return plus_memory(std::move(b), [](const TaskSize& z) { return 24.0 * z.n * z.n; });
}

}  // namespace drbench
