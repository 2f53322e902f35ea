#include "methods/neighbour/dee/dee.hpp"

#include <cmath>
#include <memory>
#include <sstream>

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/dee/dee_objective.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

namespace {
std::string num(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}
}  // namespace

void Dee::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  require_dim(in.dim, in.X.n_rows, "at most D projection directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  DeeWeights w = dee_weights(Xc, y, s_.kernel_width);
  // balanced: w- rescaled to the total of w+, so that lambda is a ratio of the two terms' weights
  // rather than a number tied to the pixel scale and to how many pairs each term has.
  const double w_scale = s_.balanced ? arma::accu(w.Wp) / arma::accu(w.Wm) : 1.0;
  w.Wm *= w_scale;
  DeeObjective obj(Xc, std::move(w.Wp), std::move(w.Wm), s_.lambda, in.dim);

  OptimOptions opt;
  opt.max_iterations = s_.iterations;
  opt.x_tol = opt.f_tol = 0.0;
  opt.rel_x_tol = s_.tolerance;
  opt.trace = in.trace;
  std::string which = s_.optimizer;
  double mu = 0.0;
  if (which == "ld" || which == "fp") {
    mu = which == "ld" ? obj.factor_laplacian(s_.mu) : obj.factor_fixed_point(s_.mu);
    opt.direction = [&obj](const arma::vec&, const arma::vec& g) {
      return obj.preconditioned_direction(g);
    };
    which = "descent";
  }
  const arma::mat A0 = s_.pca_start ? pca_projection_start(in.dim, Xc, 1e-2)
                                    : random_projection_start(in.dim, Xc, in.rng, 1e-2);
  const OptimResult r = minimize(which, obj, arma::vectorise(A0), opt);
  iterations_ = r.iterations;
  objective_ = r.f;
  stop_reason_ = r.stop_reason;
  if (in.trace) {
    in.trace->optimizer = s_.optimizer;
    in.trace->note("kernel_width", num(w.kernel_width));
    if (mu > 0) in.trace->note("mu", num(mu));
    if (s_.balanced) in.trace->note("lambda_raw", num(s_.lambda * w_scale));
    // When D > N - C the within-class scatter has a null space in which every training class is
    // a single point: there the attraction is 0 and the repulsion decays as A grows, so E's
    // infimum 0 lies along it (DCV's subspace), and LD with a small mu heads there (see
    // results/dee_dims.md). The note makes such fits recognisable in the results file.
    const arma::uword classes = arma::uvec(arma::unique(y)).n_elem;
    const arma::uword n = in.X.n_cols, D = in.X.n_rows;
    if (D + classes > n)
      in.trace->note("within_class_null_dim_min", std::to_string(D + classes - n));
  }
  const arma::mat A = arma::reshape(r.x, in.dim, in.X.n_rows);
  set_projection(in.X, mean, A.t());
}

namespace {

// The heat width whose t = 2 sigma^2 is the mean squared same-class distance (relative 1).
const char* const kSameClassReference = "the width whose t is the mean squared same-class distance";

MethodInfo dee_info() {
  MethodInfo m;
  m.name = "dee";
  m.family = "neighbour";
  m.summary =
      "discriminative elastic embedding: linear map, same-class heat attraction, "
      "other-class elastic repulsion";
  m.reference =
      "Zheng, Zhang, Cattani & Wang, Comput. Math. Methods Med. 2014, art. 594379, "
      "eq. 10-17 (derivation: methods/neighbour/dee/dee_objective.hpp)";
  const RealKey kernel_width = keywords::kernel_width(1.0, kSameClassReference);
  const ChoiceKey width = keywords::width("relative", kSameClassReference);
  const RealKey lambda = keywords::lambda(
      1.0, 1e12, false, "the repulsion between different classes (w- = squared input distance)");
  const ChoiceKey repulsion = ParamSpec::choice(
      "repulsion", "balanced", {"raw", "balanced"},
      "raw: w- = squared input distance (eq. 11); balanced (default): w- scaled so that "
      "its total equals that of w+ (lambda then weighs the terms' totals)");
  const ChoiceKey init =
      ParamSpec::choice("init", "random", {"random", "pca"},
                        "start of A: small Gaussian rows, or the leading principal directions");
  const ChoiceKey optimizer =
      keywords::optimizer("ld", {"ld", "fp", "cg", "gd"},
                          "ld: Laplacian direction; fp: fixed point; cg: conjugate gradients; gd: "
                          "gradient descent (all with a Wolfe line search)");
  const IntKey iterations =
      keywords::iterations(1000, 1000000, "the chosen optimiser (the paper's 1000)");
  const RealKey tolerance =
      keywords::tolerance(1e-3, 1.0, "when |A_new - A| <= tolerance |A| (the paper's 1e-3)");
  const RealKey mu = keywords::ridge(1e-3, 1e-12, 1e6, false,
                                     "ld/fp: on X L+ X^T (X D+ X^T) relative to its trace / D; "
                                     "needed when D > N and along class-mean directions")
                         .with(keywords::formerly("mu"));
  m.params = {kernel_width, width, lambda, repulsion, init, optimizer, iterations, tolerance, mu};
  m.supervised = true;
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  m.cost = [iterations](const DataShape& s, const ParamSet& p, arma::uword dim) {
    const double per_iter = double(dim) * s.n * (s.n + s.d) + 2.0 * s.n * s.n;
    return double(s.d) * s.d * (s.d / 3.0 + s.n) + 50.0 * iterations(p) * per_iter / 10;
  };
  m.make = [=](const ParamSet& p) {
    DeeSettings s;
    s.kernel_width = {kernel_width(p), width(p) == "relative"};
    s.lambda = lambda(p);
    s.balanced = repulsion(p) == "balanced";
    s.pca_start = init(p) == "pca";
    s.optimizer = optimizer(p);
    s.iterations = int(iterations(p));
    s.tolerance = tolerance(p);
    s.mu = mu(p);
    return std::make_unique<Dee>(s);
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(dee_info)
}  // namespace drbench
