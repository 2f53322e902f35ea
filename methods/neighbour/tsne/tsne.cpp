#include "methods/neighbour/tsne/tsne.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/affinity/perplexity.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/optim/momentum_gd.hpp"
#include "methods/neighbour/tsne/kl_gradient.hpp"

namespace drbench {

arma::mat pca_start(const arma::mat& X, arma::uword dim, double scale) {
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  arma::vec eval;
  arma::mat evec;
  if (!arma::eig_sym(eval, evec, Xc * Xc.t()))
    throw MethodError("tsne: the PCA start failed (eigendecomposition of the covariance)");
  const arma::uword d = X.n_rows;
  arma::mat Y(dim, X.n_cols, arma::fill::zeros);
  // eig_sym sorts ascending: the leading components are the last columns.
  for (arma::uword k = 0; k < std::min(dim, d); ++k) Y.row(k) = evec.col(d - 1 - k).t() * Xc;
  for (arma::uword k = 0; k < dim; ++k) {
    const arma::uword m = arma::index_max(arma::abs(Y.row(k)));
    if (Y(k, m) < 0) Y.row(k) *= -1.0;
  }
  const double s = arma::stddev(Y.row(0));
  if (s > 0) Y *= scale / s;
  return Y;
}

void Tsne::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  const double perplexity = params_.real("perplexity");
  const bool exact = params_.str("gradient") == "exact";
  const double theta = params_.real("theta");
  const int iterations = static_cast<int>(params_.integer("iterations"));
  const int early =
      std::min<int>(iterations, static_cast<int>(params_.integer("exaggeration_iterations")));
  double lr = params_.real("learning_rate");
  if (lr <= 0) lr = std::max(static_cast<double>(n) / params_.real("early_exaggeration"), 200.0);
  if (!exact && in.dim > 3)
    throw MethodError("tsne: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(in.dim) + " (fix: 'gradient: exact' or dims <= 3)");

  Y_ = params_.str("init") == "pca" ? pca_start(in.X, in.dim, 1e-4)
                                    : arma::mat(in.rng.randn(in.dim, n) * 1e-4);

  MomentumGdOptions opt;
  opt.learning_rate = lr;
  opt.phases = {{early, 0.5, params_.real("early_exaggeration")}, {iterations - early, 0.8, 1.0}};
  opt.trace = in.trace;
  GradientEstimator est;
  est.grad_norm_scale = 4.0;  // the trace shows |dKL/dY|
  arma::mat Pd;
  arma::sp_mat Ps;
  double plogp = 0.0;
  if (exact) {
    Pd = joint_affinities(in.X, perplexity);
    plogp = p_log_p(Pd);
    // The KL's logs over all n^2 pairs cost more than the gradient: every 10th iteration.
    opt.objective_every = 10;
    est.evaluate = [&](const arma::mat& Y, double e, bool want, arma::mat& g) {
      return tsne_exact_gradient(Pd, plogp, Y, e, want, g);
    };
  } else {
    Ps = sparse_joint_affinities(in.X, perplexity, static_cast<int>(params_.integer("neighbours")));
    plogp = p_log_p(Ps);
    opt.objective_every = 10;
    est.evaluate = [&](const arma::mat& Y, double e, bool want, arma::mat& g) {
      return tsne_bh_gradient(Ps, plogp, Y, theta, e, want, g);
    };
  }
  if (in.trace) {
    in.trace->optimizer = exact ? "tsne_gd_exact" : "tsne_gd_barnes_hut";
    in.trace->note("learning_rate", std::to_string(lr));
    in.trace->note("objective_every", std::to_string(opt.objective_every));
  }
  const MomentumGdResult r = momentum_gd(Y_, est, opt);
  if (r.stop_reason == "not_finite")
    throw MethodError("tsne: the embedding diverged (non-finite values) at iteration " +
                      std::to_string(r.iterations) + " (fix: lower 'learning_rate')");
  kl_ = r.objective;
}

namespace {

MethodInfo tsne_info() {
  MethodInfo m;
  m.name = "tsne";
  m.family = "neighbour";
  m.summary = "t-SNE, exact or Barnes-Hut gradient, openTSNE optimisation schedule (transductive)";
  m.reference =
      "van der Maaten & Hinton 2008, JMLR 9 (eq. 1-5); van der Maaten 2014, JMLR 15 (Barnes-Hut); "
      "Belkina et al. 2019 (learning rate n/12)";
  m.params = {
      keywords::perplexity(30.0, "the input affinities"),
      ParamSpec::choice("gradient", "barnes_hut", {"barnes_hut", "exact"},
                        "Barnes-Hut (sparse P on 3 x perplexity neighbours) or exact O(n^2)"),
      ParamSpec::real("theta", 0.5, 0.0, std::nullopt,
                      "Barnes-Hut opening angle (0 = exact repulsion on the tree)"),
      keywords::iterations(1000, 1000000, "gradient-descent iterations in all"),
      ParamSpec::real("early_exaggeration", 12.0, 1.0, std::nullopt,
                      "factor on P during the first exaggeration_iterations"),
      ParamSpec::integer("exaggeration_iterations", 250, 0, 1000000,
                         "iterations with early exaggeration and momentum 0.5"),
      ParamSpec::real("learning_rate", 0.0, 0.0, std::nullopt,
                      "step on the gradient / 4; 0 = max(n / early_exaggeration, 200)"),
      keywords::neighbours(0, 0, 1000000, "the sparse P (Barnes-Hut); 0 = 3 x perplexity"),
      ParamSpec::choice("init", "pca", {"pca", "random"},
                        "start: PCA or Gaussian, scaled to std 1e-4"),
  };
  m.iterative = true;
  m.out_of_sample = false;
  m.max_dim = [](const DataShape& s, const ParamSet& p) {
    const arma::uword lim = p.str("gradient") == "exact" ? s.d : std::min<arma::uword>(3, s.d);
    return std::min<arma::uword>(lim, s.n > 0 ? s.n - 1 : 0);
  };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword dim) {
    const double n = s.n, it = static_cast<double>(p.integer("iterations"));
    if (p.str("gradient") == "exact") return n * n * (s.d + 5.0 * it * dim);
    return n * n * s.d + it * n * (std::log2(n + 1.0) * 20.0 + 3.0 * p.real("perplexity")) * dim;
  };
  m.make = [](const ParamSet& p) { return std::make_unique<Tsne>(p); };
  return m;
}

}  // namespace

DRBENCH_REGISTER_METHOD(tsne_info)

}  // namespace drbench
