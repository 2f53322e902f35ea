#include "methods/gplvm/model.hpp"

#include <cmath>
#include <sstream>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/gplvm/init.hpp"
#include "methods/gplvm/likelihood.hpp"
#include "methods/gplvm/objective.hpp"
#include "methods/gplvm/sparse.hpp"

namespace drbench {

// Parameters added after the published tables are keywords::unkeyed.
using keywords::unkeyed;

const GplvmKeys& gplvm_keys() {
  static const GplvmKeys keys{
      ParamSpec::choice("kernel", "rbf", covariance_kernel_names(),
                        "covariance of the latent-to-data map; bias and white noise are always "
                        "added (GPLRF eq. 2)"),
      ParamSpec::integer("iterations", 1000, 1, 1e6, "optimiser iterations (TPSLVM: 1000)"),
      keywords::tolerance(
          1e-4, std::nullopt,
          "when one step changes no latent coordinate by more than this and the objective by "
          "less (Netlab's and GPmat's 1e-4); 0 runs every iteration. After a run of rejected SCG "
          "steps the step is tiny, and the test can pass far from an optimum (the tables list "
          "such fits)")
          .with(unkeyed),  // added after the GPLRF tables: their task keys still match
      keywords::objective_tolerance(
          0.0,
          "(the fit's optimiser, scg or lbfgs; rejected SCG steps count as iterations): a "
          "convergence test for fits Netlab's one-step test never stops, such as GPLRF's "
          "with a strong prior; raise `iterations` with it")
          .with(unkeyed),
      keywords::tolerance_window(100, "(the fit's optimiser)").with(unkeyed),
      keywords::gradient_tolerance(0.0, "(the fit's optimiser)").with(unkeyed),
      ParamSpec::choice("optimizer", "scg", {"scg", "lbfgs"},
                        "scaled conjugate gradients (as in the papers) or L-BFGS"),
      ParamSpec::choice("init", "ppca", {"ppca", "pca"},
                        "initial latent points: PCA scores scaled to unit variance (ppca) or raw"),
      ParamSpec::real("x_prior", 0.0, 0.0, std::nullopt,
                      "precision of a Gaussian prior on the latent points; 0 = none"),
      ParamSpec::integer("oos_iterations", 200, 1, 1e5,
                         "optimiser iterations per new point in the out-of-sample map"),
      ChoiceKey(
          ParamSpec::choice(
              "out_of_sample", "predictive", {"predictive", "expected"},
              "new points without a back-constraint: predictive = TPSLVM Algorithm 1 (the training "
              "latent point under which y* is most likely, then the GP predictive density); "
              "expected = the same search under the expected log likelihood of y* given the GP "
              "posterior of f(x*) (GPy's infer_newX), which charges posterior variance instead of "
              "rewarding it. At high d with an exact fit the predictive density can be highest "
              "far from the data and send poorly predicted points there; expected keeps them "
              "where the GP reconstructs them best (measured in results/sparsegp_usps.md)"))
          .with(unkeyed),
      ParamSpec::boolean("learn_kernel", true,
                         "optimise the kernel hyperparameters with X; false keeps them at their "
                         "initial values, which pins the latent scale that priors such as "
                         "GPLRF's GMRF otherwise shrink away"),
      keywords::approximation(
          "exact", gp_approximation_names(),
          "exact (O(n^3) per evaluation, O(n^2) memory), or through `inducing` points (O(n m^2), "
          "O(n m)): dtc and fitc (Lawrence 2007, GPmat's fgplvm), vfe (Titsias 2009)")
          .with(unkeyed),
      keywords::inducing(100, "with approximation dtc, fitc or vfe; at most n").with(unkeyed),
      BoolKey(ParamSpec::boolean("learn_inducing", true,
                                 "optimise the inducing inputs with X (false keeps them at a "
                                 "random subset of the initial latent points)"))
          .with(unkeyed),
      keywords::inducing_init(
          "random", {"random", "kmeans"},
          "random: a random subset of the initial latent points (GPy, GPmat); kmeans: k-means "
          "centres of them (k-means++ seeding from the task's seed), which keep apart and leave "
          "K_uu far better conditioned")
          .with(unkeyed),
      keywords::inducing_jitter(
          0.0,
          "0 adds jitter only where K_uu cannot be factorised (GPmat's schedule); from 60,000 "
          "points in 2-D K_uu factorises at condition 1e13-1e16 and its gradient is lost to "
          "rounding, so large fits need about 1e-6 (GPy adds 1e-6 or 1e-8 always)")
          .with(unkeyed),
  };
  return keys;
}

std::vector<ParamSpec> GplvmKeys::specs() const {
  return {kernel,           iterations,         tolerance,      objective_tolerance,
          tolerance_window, gradient_tolerance, optimizer,      init,
          x_prior,          oos_iterations,     out_of_sample,  learn_kernel,
          approximation,    inducing,           learn_inducing, inducing_init,
          inducing_jitter};
}

GplvmSettings GplvmKeys::operator()(const ParamSet& p) const {
  GplvmSettings s;
  s.kernel = kernel(p);
  s.iterations = int(iterations(p));
  s.tolerance = tolerance(p);
  s.objective_tolerance = objective_tolerance(p);
  s.tolerance_window = int(tolerance_window(p));
  s.gradient_tolerance = gradient_tolerance(p);
  s.optimizer = optimizer(p);
  s.init = init(p);
  s.x_prior = x_prior(p);
  s.oos_iterations = int(oos_iterations(p));
  s.oos = out_of_sample(p);
  s.learn_kernel = learn_kernel(p);
  read_sparse(p, s);
  return s;
}

std::vector<ParamSpec> GplvmKeys::sparse_specs() const {
  return {approximation, inducing, learn_inducing, inducing_init, inducing_jitter};
}

void GplvmKeys::read_sparse(const ParamSet& p, GplvmSettings& s) const {
  s.approximation = approximation(p);
  s.inducing = int(inducing(p));
  s.learn_inducing = learn_inducing(p);
  s.inducing_init = inducing_init(p);
  s.inducing_jitter = inducing_jitter(p);
}

PointScore point_score(const std::string& name) {
  if (name == "expected") return PointScore::expected;
  if (name == "predictive") return PointScore::predictive;
  throw Error("internal: no point score '" + name + "'");
}

double PredictiveObjective::evaluate(const arma::vec& x, arma::vec* grad) {
  const double d = double(y_.n_elem);
  const arma::mat k = kernel_.K(x, X_);     // 1 x n
  const arma::vec b = Kinv_ * k.t();        // K^-1 k
  const arma::vec mu = KinvY_.t() * k.t();  // Y^T K^-1 k
  const double var = kernel_.diag(x)(0) - arma::dot(k, b);
  const bool expected = score_ == PointScore::expected;
  // The expected score's posterior variance of f: var - sigma2, or the DTC form
  // k^T (prior_inv - Kinv) k (model.hpp), which has no k(x, x) term.
  const bool dtc_form = expected && prior_inv_ != nullptr;
  arma::vec pk;
  if (dtc_form) pk = *prior_inv_ * k.t();
  const double vf = dtc_form ? arma::dot(k, pk) - arma::dot(k, b) : var - sigma2_;
  if (!expected && !(var > 0)) {  // only without a white-noise term (exact interpolation)
    if (grad) grad->zeros(x.n_elem);
    return arma::datum::inf;
  }
  const arma::vec r = y_ - mu;
  const double rr = arma::dot(r, r);
  // expected: d/2 log(2 pi sigma2) is kept so that the value is the bound itself.
  const double f = (expected ? 0.5 * (rr + d * vf) / sigma2_ +
                                   0.5 * d * std::log(2.0 * arma::datum::pi * sigma2_)
                             : 0.5 * d * std::log(2.0 * arma::datum::pi * var) + 0.5 * rr / var) +
                   0.5 * x_prior_ * arma::dot(x, x);
  if (grad) {
    // df/dvar, the same through k(x, x) and through -k^T K^-1 k; the residual's weight.
    const double dvar = expected ? 0.5 * d / sigma2_ : 0.5 * d / var - 0.5 * rr / (var * var);
    const double rw = expected ? sigma2_ : var;
    // dL/dk = -K^-1 Y r / rw - 2 dvar K^-1 k (through the mean and the variance).
    arma::rowvec dk = (-(KinvY_ * r) / rw - 2.0 * dvar * b).t();
    if (dtc_form) {
      dk += 2.0 * dvar * pk.t();
      *grad = arma::vectorise(kernel_.grad_X_cross(x, X_, dk));
    } else {
      *grad = arma::vectorise(kernel_.grad_X_cross(x, X_, dk) +
                              kernel_.grad_X_diag(x, arma::vec{dvar}));
    }
    *grad += x_prior_ * x;
  }
  return f;
}

GplvmModel::GplvmModel(GplvmSettings s) : s_(std::move(s)) {}

void GplvmModel::fit(const arma::mat& Y, arma::uword q, Rng& rng, Trace* trace,
                     const arma::mat* X0) {
  const arma::uword n = Y.n_cols;
  if (n < 2) throw MethodError("gplvm: needs at least 2 training points, got " + std::to_string(n));
  if (q >= n)
    throw MethodError("gplvm: latent dimension " + std::to_string(q) +
                      " must be below the number of training points " + std::to_string(n) +
                      " (fix: lower 'dims')");
  mean_ = arma::mean(Y, 1);
  const arma::mat Yc = Y.each_col() - mean_;

  arma::mat Xinit;
  if (X0) {
    if (X0->n_rows != q || X0->n_cols != n) throw Error("internal: gplvm X0 has the wrong shape");
    Xinit = *X0;
  } else {
    Xinit = pca_latent_init(Yc, q, s_.init == "ppca", rng);
  }

  // Freed once the optimum is read off (below): its work arrays and its kernel's kept matrices
  // (several n x m, or the N x N buffer) would otherwise stay beside the posterior's own.
  auto owned = std::make_unique<GplvmObjective>(
      Yc, kernel_spec_ ? kernel_spec_->clone() : make_gp_kernel(s_.kernel), q);
  GplvmObjective& obj = *owned;
  const GpApproximation approx = gp_approximation(s_.approximation);
  if (approx != GpApproximation::exact) {
    if (s_.oos == "joint")
      throw MethodError("gplvm: approximation '" + s_.approximation +
                        "' needs the predictive out-of-sample map (fix: out_of_sample: "
                        "predictive, or approximation: exact)");
    if (arma::uword(s_.inducing) > n)
      throw MethodError("gplvm: inducing=" + std::to_string(s_.inducing) + " exceeds the " +
                        std::to_string(n) +
                        " training points (fix: inducing <= " + std::to_string(n) + ")");
    const arma::uword m = arma::uword(s_.inducing);
    arma::mat Z0;
    if (s_.inducing_init == "kmeans") {
      Z0 = kmeans_centres(Xinit, m, rng);
    } else {
      // A random subset of the start (GPy's SparseGPLVM and GPmat's fgplvm do the same).
      const arma::uvec perm = rng.permutation(n);
      Z0 = Xinit.cols(arma::sort(perm.head(m)));
    }
    obj.set_sparse(approx, Z0, s_.learn_inducing, s_.inducing_jitter);
  }
  obj.set_learn_kernel(s_.learn_kernel);
  obj.set_trace(trace);
  if (s_.x_prior > 0) obj.add_prior(std::make_shared<GaussianPrior>(s_.x_prior));
  for (const auto& p : priors_) obj.add_prior(p);
  for (const auto& p : tuned_) obj.add_tuned_prior(p);
  if (bc_) {
    bc_->setup(Yc, Xinit);
    obj.set_back_constraint(bc_);
  }
  OptimOptions opt;
  opt.max_iterations = s_.iterations;
  opt.x_tol = opt.f_tol = s_.tolerance;
  opt.rel_f_tol = s_.objective_tolerance;
  opt.f_window = s_.tolerance_window;
  opt.g_tol = s_.gradient_tolerance;
  opt.trace = trace;
  const arma::vec x0 = obj.pack(Xinit);
  if (!std::isfinite(obj.evaluate(x0, nullptr)))
    throw MethodError(
        "gplvm: the initial covariance matrix is not positive definite even with "
        "jitter (fix: check the data for NaN/inf or duplicated points)");
  OptimResult res = minimize(s_.optimizer, obj, x0, opt);
  X_ = obj.unpack(res.x);
  Z_ = approx != GpApproximation::exact ? obj.inducing() : arma::mat();
  f_ = res.f;
  if (trace && obj.jitter_events() > 0)
    trace->note("jitter_evaluations", std::to_string(obj.jitter_events()));
  kernel_ = obj.kernel().clone();
  const arma::mat Kuu = approx != GpApproximation::exact ? obj.inducing_covariance() : arma::mat();
  if (s_.oos == "joint") {
    free_kernel_ = obj.kernel().clone();
    Yc_ = Yc;
  }
  owned.reset();
  // A kernel with knots (thin-plate) keeps them where the fit had them: at the training latent
  // points, or at the inducing inputs of a sparse fit.
  kernel_->fix_inputs(approx != GpApproximation::exact ? Z_ : X_);

  // Quantities for prediction at the optimum.
  if (approx != GpApproximation::exact) {
    SparsePosterior post;
    if (!sparse_gp_posterior(approx, Kuu, kernel_->K(X_, Z_), kernel_->diag(X_),
                             kernel_->noise_variance(), Yc.t(), post))
      throw MethodError("gplvm: the fitted sparse posterior is not finite");
    B_ = Z_;
    Kinv_ = std::move(post.P);
    KinvY_ = std::move(post.C);
    if (approx == GpApproximation::dtc && s_.oos == "expected") {
      CholeskyJitter ch;
      if (!cholesky_with_jitter(Kuu, ch))
        throw MethodError("gplvm: the fitted K_uu is not positive definite even with jitter");
      prior_inv_ = inverse_from_cholesky(ch.R);
    }
  } else {
    CholeskyJitter ch;
    if (!cholesky_with_jitter(kernel_->K(X_), ch))
      throw MethodError("gplvm: the fitted covariance is not positive definite even with jitter");
    B_ = X_;
    Kinv_ = inverse_from_cholesky(ch.R);
    KinvY_ = Kinv_ * Yc.t();
  }
  const arma::mat Kc = kernel_->K(B_, X_);  // noise-free: a new point never shares noise
  mu_train_ = KinvY_.t() * Kc;
  var_train_ = kernel_->diag(X_) - arma::sum(Kc % (Kinv_ * Kc), 0).t();
  var_train_ = arma::clamp(var_train_, 1e-300, arma::datum::inf);
  if (s_.oos == "expected")
    var_f_train_ =
        prior_inv_.is_empty()
            ? (var_train_ - kernel_->noise_variance()).eval()
            : (arma::sum(Kc % (prior_inv_ * Kc), 0) - arma::sum(Kc % (Kinv_ * Kc), 0)).t().eval();
}

arma::vec GplvmModel::joint_point(const arma::vec& y, const arma::vec& start, double* f_out) const {
  const arma::uword q = X_.n_rows, n = X_.n_cols;
  GplvmObjective obj(arma::join_rows(Yc_, y), free_kernel_->clone(), q);
  obj.set_learn_kernel(false);
  if (s_.x_prior > 0) obj.add_prior(std::make_shared<GaussianPrior>(s_.x_prior));
  arma::mat Xa = arma::join_rows(X_, start);
  FunctionObjective f([&](const arma::vec& xs, arma::vec* g) {
    Xa.col(n) = xs;
    arma::vec full;
    const double v = obj.evaluate(arma::vectorise(Xa), g ? &full : nullptr);
    if (g) *g = full.tail(q);
    return v;
  });
  OptimOptions opt;
  opt.max_iterations = s_.oos_iterations;
  opt.x_tol = 1e-6;
  opt.f_tol = 1e-8;
  OptimResult r = scg(f, start, opt);
  if (!std::isfinite(r.f)) {
    *f_out = f.evaluate(start, nullptr);
    return start;
  }
  *f_out = r.f;
  return r.x;
}

arma::uword GplvmModel::most_likely_start(const arma::vec& y) const {
  const double d = double(y.n_elem);
  // |y - mu_i|^2 for every training latent point i at once.
  const arma::vec rr =
      arma::dot(y, y) - 2.0 * (mu_train_.t() * y) + arma::sum(arma::square(mu_train_), 0).t();
  if (s_.oos == "expected") return (rr + d * var_f_train_).eval().index_min();
  // -log N(y | mu_i, var_i I) up to a constant.
  const arma::vec nll = 0.5 * d * arma::log(var_train_) + 0.5 * rr / var_train_;
  return nll.index_min();
}

arma::mat GplvmModel::transform(const arma::mat& Ynew) const {
  if (X_.is_empty()) throw Error("internal: gplvm transform before fit");
  if (Ynew.n_rows != mean_.n_elem)
    throw MethodError("gplvm: new points have dimension " + std::to_string(Ynew.n_rows) +
                      ", the training data had " + std::to_string(mean_.n_elem));
  const arma::mat Yc = Ynew.each_col() - mean_;
  if (bc_) return bc_->map(Yc);
  if (s_.oos == "joint") {
    // The authors' start: PPCA coordinates of the new points themselves (deterministic here).
    Rng rng(0);
    const arma::mat start = Yc.n_cols > X_.n_rows ? pca_latent_init(Yc, X_.n_rows, true, rng)
                                                  : arma::mat(arma::zeros(X_.n_rows, Yc.n_cols));
    arma::mat out(X_.n_rows, Yc.n_cols);
    // The PPCA frame of a batch is not the training frame, so from that start alone the search
    // can stop in a far local optimum (a training observation then lands away from its own
    // point); Algorithm 1's start is tried too and the likelier end kept.
    for (arma::uword j = 0; j < Yc.n_cols; ++j) {
      double fa = 0, fb = 0;
      const arma::vec a = joint_point(Yc.col(j), start.col(j), &fa);
      const arma::vec b = joint_point(Yc.col(j), X_.col(most_likely_start(Yc.col(j))), &fb);
      out.col(j) = fb < fa ? b : a;
    }
    return out;
  }
  arma::mat out(X_.n_rows, Ynew.n_cols);
  OptimOptions opt;
  opt.max_iterations = s_.oos_iterations;
  opt.x_tol = 1e-6;
  opt.f_tol = 1e-8;
  const PointScore score = point_score(s_.oos);
  if (score == PointScore::expected && !(kernel_->noise_variance() > 0))
    throw MethodError(
        "gplvm: out_of_sample: expected divides by the fitted noise variance, which is 0 here "
        "(fix: out_of_sample: predictive)");
  for (arma::uword j = 0; j < Ynew.n_cols; ++j) {
    const arma::vec y = Yc.col(j);
    PredictiveObjective pred(*kernel_, B_, Kinv_, KinvY_, y, s_.x_prior, score,
                             prior_inv_.is_empty() ? nullptr : &prior_inv_);
    const arma::vec start = X_.col(most_likely_start(y));
    OptimResult r = scg(pred, start, opt);
    out.col(j) = std::isfinite(r.f) ? r.x : start;
  }
  return out;
}

}  // namespace drbench
