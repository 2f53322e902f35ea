#include "methods/gplvm/models/common.hpp"

#include <algorithm>
#include <utility>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "methods/gplvm/back_constraints/linear.hpp"
#include "methods/gplvm/back_constraints/mlp.hpp"
#include "methods/gplvm/back_constraints/rbf.hpp"
#include "methods/gplvm/init.hpp"

namespace drbench {

BackConstraintKeys back_constraint_keys(const std::string& def, bool with_none) {
  std::vector<std::string> kinds{"rbf", "mlp", "linear"};
  if (with_none) kinds.push_back("none");
  return {
      ParamSpec::choice("back_constraint", def, kinds,
                        "map X = g(Y) optimised through the chain rule and used for new "
                        "points "
                        "(rbf: kernel regression as in GPLRF; none: TPSLVM Algorithm 1)"),
      keywords::kernel_width(10.0, ""),  // the RBF back-constraint's; GPLRF's gamma = 1/width^2

      ParamSpec::integer("hidden", 20, 1, 1e4, "tanh hidden units of the MLP back-constraint"),
  };
}

std::shared_ptr<BackConstraint> make_back_constraint(const BackConstraintSetting& s, Rng& rng) {
  const std::string& kind = s.kind;
  // gamma = 1/w/w (not 1/(w*w)): the widths of GPLRF's gammas 0.001, 0.01, 0.1 written to 17
  // digits (31.622776601683793, 10, 3.162277660168379) then give those gammas to the bit.
  const double w = s.kernel_width;
  if (kind == "rbf") return std::make_shared<RbfBackConstraint>(1.0 / w / w);
  if (kind == "mlp") return std::make_shared<MlpBackConstraint>(s.hidden, rng.engine()());
  if (kind == "linear") return std::make_shared<LinearBackConstraint>();
  if (kind == "none") return nullptr;
  throw Error("internal: unknown back_constraint '" + kind + "'");
}

RealKey prior_weight(const std::string& doc) {
  return keywords::lambda(1.0, std::nullopt, true, doc).with(keywords::formerly("alpha"));
}

std::vector<ParamSpec> gp_variant_param_specs(const std::string& def_bc, std::vector<ParamSpec> own,
                                              bool bc_none) {
  std::vector<ParamSpec> all = gplvm_keys().specs();
  for (auto& s : back_constraint_keys(def_bc, bc_none).specs()) all.push_back(std::move(s));
  for (auto& s : own) all.push_back(std::move(s));
  return all;
}

PriorGplvm::PriorGplvm(std::string method, GplvmSettings s, BackConstraintSetting bc,
                       PriorBuilder priors, bool supervised)
    : GplvmMethod(s),
      method_(std::move(method)),
      s_(std::move(s)),
      bc_(std::move(bc)),
      priors_(std::move(priors)),
      supervised_(supervised) {}

PriorGplvm::PriorGplvm(std::string method, const ParamSet& p, PriorBuilder priors, bool supervised)
    // The back-constraint keys read by name and type: any default serves.
    : PriorGplvm(std::move(method), gplvm_keys()(p), back_constraint_keys("rbf")(p),
                 std::move(priors), supervised) {}

void PriorGplvm::fit(const FitInput& in) {
  if (supervised_ && (in.labels == nullptr || in.n_classes < 2))
    throw MethodError(method_ + ": needs the labels of the training points (supervised method)");
  model_ = GplvmModel(s_);
  for (auto& prior : priors_(in)) model_.add_prior(std::move(prior));
  if (auto bc = make_back_constraint(bc_, in.rng)) model_.set_back_constraint(std::move(bc));
  if (s_.init == "slpp") {
    if (in.labels == nullptr)
      throw MethodError(method_ + ": init 'slpp' needs the training labels (fix: init: ppca)");
    const arma::mat X0 = slpp_latent_init(in.X, *in.labels, in.dim);
    model_.fit(in.X, in.dim, in.rng, in.trace, &X0);
    return;
  }
  model_.fit(in.X, in.dim, in.rng, in.trace);
}

double sparse_inducing(const GplvmSettings& g, const DataShape& s) {
  if (g.approximation == "exact") return 0.0;
  return std::min(double(g.inducing), double(s.n));
}

namespace {

// The iteration cap and the inducing points of a variant's setting, for its cost and memory
// estimates. TPSLVM's variants declare neither `inducing` nor the other sparse keys (their
// approximation is exact only), so only what they declare is read.
GplvmSettings estimate_settings(const ParamSet& p) {
  const GplvmKeys& k = gplvm_keys();
  GplvmSettings g;
  g.iterations = int(k.iterations(p));
  g.approximation = k.approximation(p);
  if (g.approximation != "exact") g.inducing = int(k.inducing(p));
  return g;
}

// Whether a setting maps new points through a back-constraint, and the out_of_sample score it
// searches for them with ("" where the variant does not declare the key).
bool back_constrained(const ParamSet& p) {
  return p.has("back_constraint") && p.str("back_constraint") != "none";
}
std::string search_score(const ParamSet& p) {
  return p.has("out_of_sample") ? p.str("out_of_sample") : "";
}

}  // namespace

MethodInfo gp_variant_info(std::string name, std::string summary, std::string reference,
                           std::vector<ParamSpec> params, bool supervised) {
  MethodInfo m =
      describe_method(std::move(name), "gplvm", std::move(summary), std::move(reference));
  m.params = std::move(params);
  // Only the label-using variants see the labels, so only they can start from SLPP.
  if (supervised)
    for (auto& s : m.params)
      if (s.name == "init") {
        s.choices.push_back("slpp");
        s.doc += "; slpp: SLPP coordinates at unit variance (the GPLRF paper's oil start)";
      }
  m.supervised = supervised;
  m.iterative = true;
  m.out_of_sample = true;
  // A back-constrained variant maps new points through g(Y); a search for x* would not run.
  m.check_setting = [](const ParamSet& p) -> std::string {
    const std::string score = search_score(p);
    if (!back_constrained(p) || score.empty() || score == "predictive") return {};
    return "out_of_sample: " + score +
           " chooses how new points are searched for, but this model maps them through its "
           "back-constraint (fix: leave out_of_sample out, or back_constraint: none where the "
           "method has it)";
  };
  // The predictive density's failure at high d (results/sparsegp_usps.md) is not an error: the
  // papers' protocols use it, and at 12-D (oil) it works. Above 50 dimensions, say so.
  m.advise = [](const DataShape& s, const ParamSet& p) -> std::string {
    if (s.n_test == 0 || back_constrained(p) || s.d <= 50 || search_score(p) != "predictive")
      return {};
    return "new points of " + std::to_string(s.d) +
           "-D data are searched for under the GP predictive density (out_of_sample: "
           "predictive, the default), which at high dimension can send poorly predicted points "
           "far from the data (USPS, 156-D: 49.9 % 1-NN error, 7.8 % with out_of_sample: "
           "expected; results/sparsegp_usps.md); out_of_sample: expected avoids it";
  };
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return s.n > 1 ? s.n - 1 : arma::uword(0);
  };
  return m;
}

Budget gp_variant_budget() {
  // As the plain GP-LVM: one Cholesky + inverse and O(n^2 d) products per
  // evaluation, about two evaluations per SCG iteration. Sparse: about six n x m x m products,
  // four n x m x d ones and a few m^3 factorisations per evaluation.
  TaskEstimate cost = [](const TaskSize& z) {
    const GplvmSettings g = estimate_settings(z.p);
    const double it = double(g.iterations);
    if (const double mi = sparse_inducing(g, z.shape))
      return it * 2.0 * (6.0 * z.n * mi * mi + 4.0 * z.n * mi * z.d + 4.0 * mi * mi * mi);
    return it * 2.0 * (z.n * z.n * z.n + 3.0 * z.n * z.n * z.d);
  };
  // Sparse: the n x m matrices of one evaluation, m x m ones, and the n x d work arrays; no n x n
  // matrix of the likelihood. At most six n x m live at once (K_fu, whitened in its own storage;
  // fitc's Lambda^-1/2 K_fu R^-1; dL/dK_fu; the stationary kernels' kept s, f(s) and gradient
  // weights; dtc and vfe one fewer), counted as seven for kernels that keep less and make
  // temporaries. GPLRF with the MLP back-constraint, m = 100, Fashion-MNIST 60,000 x 50-D
  // (`drbench plan` against the task's peak): 989 MiB planned, 865 (dtc) and 893 MiB
  // (fitc) measured; nine n x m planned 1,085 MiB.
  // Exact: the N x N kernel buffer and its inverse, a jittered copy, the kernel gradients and the
  // priors' own N x N matrices: `drbench run` peaked 7.9 (gplvm) and 10.0 (gplrf) N x N above
  // `drbench validate` at N = 1500 (benchmarks/memory_peaks.py; the other variants' priors are
  // of the same kind, not measured); the fitted model keeps a few N x N while the test points are
  // mapped.
  return make_budget(std::move(cost), [](const TaskSize& z) {
    if (const double mi = sparse_inducing(estimate_settings(z.p), z.shape))
      return 8.0 * (7.0 * z.n * mi + 6.0 * mi * mi + 8.0 * z.n * z.d + 6.0 * z.n * z.q);
    return memory_dense(z.shape, z.dim, 11.0, 4.0);
  });
}

}  // namespace drbench
