// TPSLVM (Jiang, Gao, Wang & Shi, IEEE T-Cyb 2014) and its back-constrained version: the GP-LVM
// likelihood (eq. 16-18) under the thin-plate-spline covariance K = beta^-1 I + E^T E + C^T C
// (eq. 17; kernels/tps.hpp), MAP with a Gaussian prior on X (eq. 24-25, as the paper's
// experiments), PPCA start and beta = 1 (Algorithm 1, step 1), SCG. New points: Algorithm 1 steps
// 3-4 (knots fixed at the training latent points) or, with a back-constraint, the map g(y).
//
// Sparse TPSLVM (approximation: dtc | fitc | vfe; sparse.hpp). The thin-plate covariance is a
// linear kernel on the features phi(x) = [eta(|x - t_k|)]_k, x, 1 of its knots t_k, which the
// exact model puts at every latent point (an N x N covariance whatever the approximation). The
// sparse form moves the knots to the m inducing inputs Z, so that with Phi_A = [eta(|z_k -
// a_j|)]_kj (m x |A|):
//   K_uu = Phi_Z^T Phi_Z + Z^T Z + 1,  K_fu = Phi_X^T Phi_Z + X^T Z + 1,
//   diag K_ff = |Phi_X e_i|^2 + |x_i|^2 + 1 (+ 1/beta),
// O(n m) memory and O(n m^2) work. At m = n, Z = X these are the exact TPSLVM covariance and
// every approximation is its likelihood (tested). Gradients (kernels/tps.cpp), with D_A the
// matching eta'(r)/r and G_fu, G_uu, g the gradients wrt K_fu, K_uu, diag:
//   dL/dPhi_X = Phi_Z G_fu^T + 2 Phi_X diag(g),  dL/dPhi_Z = Phi_X G_fu + Phi_Z (G_uu + G_uu^T);
// with P = dL/dPhi_X .* D_X an entry moves x_j by P_kj (x_j - z_k) and the knot z_k by
// P_kj (z_k - x_j); with S = Q + Q^T, Q = dL/dPhi_Z .* D_Z, z_k gains sum_l S_kl (z_k - z_l) (Z
// both as knots and as points); the linear part adds Z G_fu^T + 2 X diag(g) to X's and
// X G_fu + Z (G_uu + G_uu^T) to Z's. The kernel has no hyperparameter: log beta is the white
// noise's, whose gradient is the sparse likelihood's sigma^2 one. After the fit the knots stay at
// Z (fix_inputs), so a new point's features and the predictive map use the same covariance.
// K_uu has no noise term and the r^3 (1-D) and r^2 log r (2-D) features grow with distance, so
// K_uu's condition is large (1e6 in 2-D, 1e8-1e11 in 1-D for a dozen spread points):
// inducing_jitter 1e-6 is advised for real data.
#include <cmath>
#include <utility>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "methods/gplvm/kernels/sum.hpp"
#include "methods/gplvm/kernels/tps.hpp"
#include "methods/gplvm/kernels/white.hpp"
#include "methods/gplvm/models/common.hpp"
#include "methods/gplvm/models/dynamics.hpp"
#include "methods/gplvm/models/tpslvm.hpp"

namespace drbench {

const TpsLvmKeys& tpslvm_keys() {
  static const TpsLvmKeys keys{
      ParamSpec::integer("iterations", 1000, 1, 1e6,
                         "optimiser iterations (the paper: 1000 SCG iterations; the authors' "
                         "code: 200 function evaluations for oil, 500 iris, 1000 swiss roll)"),
      ParamSpec::choice("optimizer", "scg", {"scg", "lbfgs"},
                        "scaled conjugate gradients (as in the paper) or L-BFGS"),
      ParamSpec::choice("init", "ppca", {"ppca", "pca"},
                        "initial latent points: PCA scores at unit variance (ppca, Algorithm 1) "
                        "or raw"),
      ParamSpec::real("x_prior", 1.0, 0.0, std::nullopt,
                      "precision of the Gaussian prior on the latent points (eq. 24); 0 = "
                      "maximum likelihood"),
      ParamSpec::real("beta", 1.0, 0.0, std::nullopt,
                      "initial noise precision beta (Algorithm 1: 1)", true),
      ParamSpec::boolean("learn_beta", true,
                         "optimise log beta with X (false keeps beta at its initial value)"),
      ParamSpec::choice("constant", "paper", {"paper", "classical"},
                        "c in eta = c r^2 log r for 2-D latent spaces: 1/(8 sqrt(pi)) as the "
                        "paper's eq. 8 and the authors' code, or the classical 1/(8 pi)"),
      ParamSpec::integer("oos_iterations", 200, 1, 1e5,
                         "optimiser iterations per new point in the out-of-sample map"),
      ParamSpec::choice("out_of_sample", "predictive", {"predictive", "expected", "joint"},
                        "new points: predictive = Algorithm 1 (most likely training point, then "
                        "the GP predictive density, knots fixed; O(N^2) per step); expected = "
                        "the same search under the expected log likelihood of y* given the "
                        "posterior of f(x*), as gplvm's; joint = the "
                        "authors' code (x* joins the knots, likelihood of all N + 1 points from "
                        "the new points' PPCA start and from Algorithm 1's, the likelier end "
                        "kept; O(N^3) per step)"),
  };
  return keys;
}

TpsLvmSetting TpsLvmKeys::operator()(const ParamSet& p) const {
  TpsLvmSetting t;
  GplvmSettings& s = t.gp;
  s.kernel = "tps";
  s.iterations = int(iterations(p));
  s.optimizer = optimizer(p);
  s.init = init(p);
  s.x_prior = x_prior(p);
  s.oos_iterations = int(oos_iterations(p));
  s.learn_kernel = learn_beta(p);
  s.oos = out_of_sample(p);
  gplvm_keys().read_sparse(p, s);
  t.constant = constant(p) == "classical" ? TpsConstant::classical : TpsConstant::paper;
  t.beta = beta(p);
  return t;
}

std::unique_ptr<Kernel> tpslvm_kernel(const TpsLvmSetting& s) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::make_unique<TpsKernel>(s.constant));
  parts.push_back(std::make_unique<WhiteKernel>(1.0 / s.beta));
  return std::make_unique<SumKernel>(std::move(parts));
}

TpsLvm::TpsLvm(std::string method, TpsLvmSetting s)
    : GplvmMethod(s.gp), method_(std::move(method)), s_(std::move(s)) {}

void TpsLvm::fit(const FitInput& in) {
  if (in.dim < 1 || in.dim > 4)
    throw MethodError(method_ + ": thin-plate splines need a latent dimension of 1..4, got " +
                      std::to_string(in.dim) + " (fix: dims <= 4)");
  model_ = GplvmModel(s_.gp);
  model_.set_kernel(tpslvm_kernel(s_));
  if (s_.dynamics) add_dynamics(model_, *s_.dynamics, in, method_);
  if (s_.bc) model_.set_back_constraint(make_back_constraint(*s_.bc, in.rng));
  model_.fit(in.X, in.dim, in.rng, in.trace);
}

MethodInfo tpslvm_family_info(std::string name, std::string summary, std::vector<ParamSpec> own) {
  std::vector<ParamSpec> params = tpslvm_keys().specs();
  for (auto& s : own) params.push_back(std::move(s));
  MethodInfo m = gp_variant_info(std::move(name), std::move(summary),
                                 "Jiang, Gao, Wang & Shi. TPSLVM: a dimensionality reduction "
                                 "algorithm based on thin plate splines, IEEE T-Cyb 44(10) 2014, "
                                 "eq. 13-25, Algorithm 1",
                                 std::move(params), false);
  // eta of an order-2 thin-plate spline is singular at 0 from q = 5 on.
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(4, s.n > 1 ? s.n - 1 : 0);
  };
  m.check_setting = [base = m.check_setting](const ParamSet& p) -> std::string {
    if (base)
      if (std::string problem = base(p); !problem.empty()) return problem;
    const GplvmSettings g = tpslvm_keys()(p).gp;
    if (g.approximation != "exact" && g.oos == "joint")
      return "approximation '" + g.approximation +
             "' maps new points through the inducing inputs, and out_of_sample: joint refits "
             "every training point as a knot (fix: out_of_sample: predictive, or approximation: "
             "exact)";
    return {};
  };
  return m;
}

Budget tpslvm_family_budget() {
  // Sparse: the thin-plate kernel keeps eta and eta'/r of (X, Z) and (Z, Z) for the gradient
  // pass, two slots of two n x m matrices, on top of the sparse GP-LVM's.
  Budget b = plus_memory(gp_variant_budget(), [](const TaskSize& z) {
    return 8.0 * 4.0 * z.n * sparse_inducing(tpslvm_keys()(z.p).gp, z.shape);
  });
  // Per evaluation: E (N^2), E E^T and the two gradient products (3 N^3) on top of the GP floor.
  // Sparse: the sparse GP-LVM's n m^2 products plus the thin-plate form's four (K_fu, its two
  // gradient products, the diagonal's).
  b.cost = make_budget([](const TaskSize& z) {
             const TpsLvmSetting t = tpslvm_keys()(z.p);
             const double it = double(t.gp.iterations);
             if (const double mi = sparse_inducing(t.gp, z.shape))
               return it * 2.0 * (10.0 * z.n * mi * mi + 4.0 * z.n * mi * z.d + 4.0 * mi * mi * mi);
             return it * 2.0 * (4.0 * z.n * z.n * z.n + 3.0 * z.n * z.n * z.d);
           }).cost;
  return b;
}

namespace {

// The authors' BC-TPSLVM default: RBF back-constraint of inverse width 1e-4, kernel_width 100.
const BackConstraintKeys& bc_keys() {
  static const BackConstraintKeys keys = [] {
    BackConstraintKeys k = back_constraint_keys("rbf", false);
    k.kernel_width = k.kernel_width.with([](ParamSpec& s) { s.default_value = 100.0; });
    return k;
  }();
  return keys;
}

// The variant's setting: TPSLVM's, with the back-constraint and the dynamics prior it has.
TpsLvmSetting variant_setting(const ParamSet& p, bool back_constrained, bool dynamics) {
  TpsLvmSetting s = tpslvm_keys()(p);
  if (back_constrained) s.bc = bc_keys()(p);
  if (dynamics) s.dynamics = dynamics_keys()(p);
  return s;
}

MethodInfo tpslvm_info() {
  MethodInfo m = tpslvm_family_info(
      "tpslvm", "thin-plate-spline latent variable model (GP-LVM with the TPS covariance)", {});
  m.make = [](const ParamSet& p) {
    return std::make_unique<TpsLvm>("tpslvm", variant_setting(p, false, false));
  };
  return m;
}

MethodInfo bctpslvm_info() {
  MethodInfo m = tpslvm_family_info(
      "bctpslvm",
      "back-constrained TPSLVM: latent points a smooth map of the data (rbf/mlp/linear)",
      bc_keys().specs());
  m.make = [](const ParamSet& p) {
    return std::make_unique<TpsLvm>("bctpslvm", variant_setting(p, true, false));
  };
  return m;
}

MethodInfo tpslvm_dm_info() {
  MethodInfo m = tpslvm_family_info(
      "tpslvm_dm", "TPSLVM with a GP dynamics prior over time-ordered sequences (TPSLVM-DM)",
      dynamics_keys().specs());
  drop_gaussian_prior_default(m.params);
  m.make = [](const ParamSet& p) {
    return std::make_unique<TpsLvm>("tpslvm_dm", variant_setting(p, false, true));
  };
  return m;
}

MethodInfo bctpslvm_dm_info() {
  std::vector<ParamSpec> own = bc_keys().specs();
  for (auto& s : dynamics_keys().specs()) own.push_back(std::move(s));
  MethodInfo m = tpslvm_family_info(
      "bctpslvm_dm", "back-constrained TPSLVM with a GP dynamics prior (BC-TPSLVM-DM)", own);
  drop_gaussian_prior_default(m.params);
  m.make = [](const ParamSet& p) {
    return std::make_unique<TpsLvm>("bctpslvm_dm", variant_setting(p, true, true));
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(tpslvm_info, tpslvm_family_budget())
DRBENCH_METHOD(bctpslvm_info, tpslvm_family_budget())
DRBENCH_METHOD(tpslvm_dm_info, tpslvm_family_budget())
DRBENCH_METHOD(bctpslvm_dm_info, tpslvm_family_budget())
}  // namespace drbench
