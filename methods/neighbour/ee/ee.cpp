#include "methods/neighbour/ee/ee.hpp"

#include <memory>
#include <sstream>

#include "framework/affinity/perplexity.hpp"
#include "framework/affinity/weights.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/ee/ee_objective.hpp"

namespace drbench {

namespace {
std::string num(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}
}  // namespace

void ElasticEmbedding::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  if (n < 3) throw MethodError("ee: needs at least 3 points, got " + std::to_string(n));
  const arma::mat D2 = sq_distances(in.X);
  arma::mat Wp = params_.str("weights") == "perplexity"
                     ? joint_affinities(in.X, params_.real("perplexity"))
                     : gaussian_weights(D2, params_.real("kernel_width"));
  arma::mat Wm = D2;
  Wm.diag().zeros();
  const double sp = arma::accu(Wp), sm = arma::accu(Wm);
  if (!(sp > 0))
    throw MethodError("ee: every attractive weight underflowed to 0 (fix: raise 'kernel_width')");
  if (!(sm > 0)) throw MethodError("ee: all input points coincide");
  Wp /= sp;
  Wm /= sm;
  const std::string optimizer = params_.str("optimizer");
  if (optimizer == "fp" && arma::min(arma::sum(Wp, 1)) <= 0)
    throw MethodError(
        "ee: a point has no attractive weight, so the fixed-point step is undefined "
        "(fix: raise 'kernel_width' or use 'weights: perplexity')");
  EeObjective obj(std::move(Wp), std::move(Wm), params_.real("lambda"), in.dim);

  OptimOptions opt;
  opt.max_iterations = static_cast<int>(params_.integer("iterations"));
  opt.x_tol = opt.f_tol = 0.0;
  opt.rel_x_tol = params_.real("tolerance");
  opt.line_search = LineSearchKind::Armijo;
  opt.armijo.c = 0.1;
  opt.armijo.rho = 0.8;
  opt.trace = in.trace;
  std::string run = "gd";
  double mu = 0.0;
  if (optimizer == "sd") {
    mu = obj.factor_spectral(params_.real("mu"));
    opt.direction = [&obj](const arma::vec&, const arma::vec& g) {
      return obj.spectral_direction(g);
    };
    run = "descent";
  } else if (optimizer == "fp") {
    opt.direction = [&obj](const arma::vec&, const arma::vec& g) {
      return obj.fixed_point_direction(g);
    };
    run = "descent";
  }
  // A small random start (the EE reference code's): every pair starts inside the repulsion's
  // range, so the embedding unfolds from the attraction/repulsion balance rather than a guess.
  const arma::mat Y0 = in.rng.randn(in.dim, n) * 1e-5;
  const OptimResult r = minimize(run, obj, arma::vectorise(Y0), opt);
  Y_ = arma::reshape(r.x, in.dim, n);
  objective_ = r.f;
  iterations_ = r.iterations;
  stop_reason_ = r.stop_reason;
  if (in.trace) {
    in.trace->optimizer = "ee_" + optimizer;
    if (mu > 0) in.trace->note("mu", num(mu));
  }
  if (!Y_.is_finite()) throw MethodError("ee: the embedding diverged (fix: lower 'lambda')");
}

namespace {

MethodInfo ee_info() {
  MethodInfo m;
  m.name = "ee";
  m.family = "neighbour";
  m.summary =
      "elastic embedding: Gaussian attraction, elastic repulsion on squared input "
      "distances; spectral-direction optimiser (transductive)";
  m.reference =
      "Carreira-Perpinan 2010, ICML (eq. 1-4); Vladymyrov & Carreira-Perpinan 2012, "
      "ICML (spectral direction); DEE paper eq. 1-4";
  m.params = {
      keywords::weights("perplexity", {"perplexity", "gaussian"},
                        "w+ are entropic affinities at 'perplexity' (symmetrised) or "
                        "exp(-r^2/(2 kernel_width^2))"),
      keywords::perplexity(20.0, "the w+ affinities"),
      keywords::kernel_width(1.0, ""),  // weights: gaussian only
      keywords::lambda(100.0, std::nullopt, true, "the repulsion (w+ and w- each sum to one)"),
      keywords::optimizer("sd", {"sd", "fp", "gd"},
                          "sd: spectral direction; fp: fixed point; gd: gradient descent (all "
                          "with backtracking Armijo c = 0.1, rho = 0.8)"),
      keywords::iterations(1000, 1000000, "the chosen optimiser"),
      keywords::tolerance(1e-3, 1.0, "when |Y_new - Y| <= tolerance |Y|"),
      ParamSpec::real("mu", 1e-10, 1e-15, 1.0, "sd: ridge on 4 L+ relative to its mean diagonal"),
  };
  m.iterative = true;
  m.out_of_sample = false;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 0 ? s.n - 1 : 0; };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword dim) {
    const double n = s.n;
    return n * n * (s.d + n / 3.0) + 20.0 * double(p.integer("iterations")) * n * n * (dim + 3);
  };
  m.make = [](const ParamSet& p) { return std::make_unique<ElasticEmbedding>(p); };
  return m;
}

}  // namespace

DRBENCH_REGISTER_METHOD(ee_info)

}  // namespace drbench
