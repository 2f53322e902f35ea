#include "methods/neighbour/ee/ee.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "framework/affinity/perplexity.hpp"
#include "framework/affinity/weights.hpp"
#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/trace_number.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/ee/ee_bh_objective.hpp"
#include "methods/neighbour/ee/ee_objective.hpp"

namespace drbench {

namespace {
// From this many points `gradient: auto` takes the linear-time path: below it the dense path is
// seconds and every committed result (at most a few thousand points) keeps its exact numbers.
constexpr arma::uword kAutoBarnesHut = 5000;

// CG steps per spectral direction when `cg_iterations` is 0: with the factored preconditioner five
// steps give directions at least as good as fifty Jacobi steps (two sufficed on Fashion-MNIST but
// not on USPS, where the fit then crawled: docs/benchmarks.md); with Jacobi, the fifty of the
// first linear-time version.
constexpr int kCgWithFactor = 5;
constexpr int kCgJacobi = 50;

// The common optimiser settings of both paths.
OptimOptions ee_options(const EeSetting& s, Trace* trace) {
  OptimOptions opt;
  opt.max_iterations = s.iterations;
  opt.x_tol = opt.f_tol = 0.0;
  opt.rel_x_tol = s.tolerance;
  opt.line_search = LineSearchKind::Armijo;
  opt.armijo.c = 0.1;
  opt.armijo.rho = 0.8;
  opt.trace = trace;
  return opt;
}

// EE's optimiser choice on either objective (dense or Barnes-Hut): plain gradient descent, or the
// descent table with the spectral direction (sd: the attractive graph Laplacian + mu I) or the
// fixed-point direction (fp). Returns the table's run; `mu` is the spectral shift (0 without it);
// `after_spectral(obj)` runs after each spectral direction (the Barnes-Hut path counts its CG).
template <class Objective, class AfterSpectral>
std::string choose_direction(const std::string& optimizer, Objective& obj, double mu_param,
                             OptimOptions& opt, double& mu, AfterSpectral after_spectral) {
  if (optimizer == "sd") {
    mu = obj.factor_spectral(mu_param);
    opt.direction = [&obj, after_spectral](const arma::vec&, const arma::vec& g) {
      arma::vec p = obj.spectral_direction(g);
      after_spectral(obj);
      return p;
    };
    return "descent";
  }
  if (optimizer == "fp") {
    opt.direction = [&obj](const arma::vec&, const arma::vec& g) {
      return obj.fixed_point_direction(g);
    };
    return "descent";
  }
  return "gd";
}

}  // namespace

bool ee_uses_barnes_hut(const std::string& gradient, bool perplexity_weights, arma::uword n,
                        arma::uword dim) {
  if (gradient != "auto") return gradient == "barnes_hut";
  return n >= kAutoBarnesHut && dim <= 3 && perplexity_weights;
}

template <class Objective>
void ElasticEmbedding::minimize_from_small_start(const std::string& run, Objective& obj,
                                                 const OptimOptions& opt, const FitInput& in,
                                                 arma::uword n) {
  const arma::mat Y0 = in.rng.randn(in.dim, n) * 1e-5;
  const OptimResult r = minimize(run, obj, arma::vectorise(Y0), opt);
  Y_ = arma::reshape(r.x, in.dim, n);
  objective_ = r.f;
  iterations_ = r.iterations;
  stop_reason_ = r.stop_reason;
}

void ElasticEmbedding::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  if (n < 3) throw MethodError("ee: needs at least 3 points, got " + std::to_string(n));
  if (ee_uses_barnes_hut(s_.gradient, s_.perplexity_weights, n, in.dim)) return fit_linear_time(in);
  const arma::mat D2 = sq_distances(in.X);
  arma::mat Wp = s_.perplexity_weights ? joint_affinities(in.X, s_.perplexity)
                                       : gaussian_weights(D2, s_.kernel_width);
  arma::mat Wm = D2;
  Wm.diag().zeros();
  const double sp = arma::accu(Wp), sm = arma::accu(Wm);
  if (!(sp > 0))
    throw MethodError("ee: every attractive weight underflowed to 0 (fix: raise 'kernel_width')");
  if (!(sm > 0)) throw MethodError("ee: all input points coincide");
  Wp /= sp;
  Wm /= sm;
  const std::string optimizer = s_.optimizer;
  if (optimizer == "fp" && arma::min(arma::sum(Wp, 1)) <= 0)
    throw MethodError(
        "ee: a point has no attractive weight, so the fixed-point step is undefined "
        "(fix: raise 'kernel_width' or use 'weights: perplexity')");
  EeObjective obj(std::move(Wp), std::move(Wm), s_.lambda, in.dim);

  OptimOptions opt = ee_options(s_, in.trace);
  double mu = 0.0;
  const std::string run =
      choose_direction(optimizer, obj, s_.mu, opt, mu, [](const EeObjective&) {});
  minimize_from_small_start(run, obj, opt, in, n);
  if (in.trace) {
    in.trace->optimizer = "ee_" + optimizer;
    if (mu > 0) in.trace->note("mu", trace_number(mu));
  }
  if (!Y_.is_finite()) throw MethodError("ee: the embedding diverged (fix: lower 'lambda')");
}

void ElasticEmbedding::fit_linear_time(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  if (!s_.perplexity_weights)
    throw MethodError(
        "ee: the linear-time path needs 'weights: perplexity' (fix: that, or "
        "'gradient: exact')");
  const double perplexity = s_.perplexity;
  const std::int64_t k_given = s_.neighbours;
  const arma::uword k =
      k_given > 0 ? static_cast<arma::uword>(k_given)
                  : std::min<arma::uword>(n - 1, static_cast<arma::uword>(3.0 * perplexity));
  if (k > n - 1)
    throw MethodError("ee: 'neighbours' = " + std::to_string(k) +
                      " exceeds n - 1 = " + std::to_string(n - 1) + " (fix: lower 'neighbours')");
  GraphOptions go = fit_graph_options(s_.neighbour_graph, in.threads, in.rng);
  const NeighbourGraph graph = neighbour_graph(in.X, k, go);
  arma::sp_mat Wp = graph_joint_affinities(in.X, graph, perplexity, in.threads);
  EeBhObjective obj(std::move(Wp), in.X, s_.lambda, in.dim, s_.theta, in.threads);
  obj.precondition_neighbours = s_.precondition_neighbours;
  const std::int64_t cg_given = s_.cg_iterations;
  obj.cg_iterations = cg_given > 0                      ? static_cast<int>(cg_given)
                      : obj.precondition_neighbours > 0 ? kCgWithFactor
                                                        : kCgJacobi;

  OptimOptions opt = ee_options(s_, in.trace);
  const std::string optimizer = s_.optimizer;
  double mu = 0.0;
  long cg_total = 0;
  const std::string run =
      choose_direction(optimizer, obj, s_.mu, opt, mu,
                       [&cg_total](const EeBhObjective& o) { cg_total += o.last_cg_iterations(); });
  minimize_from_small_start(run, obj, opt, in, n);
  if (in.trace) {
    in.trace->optimizer = "ee_" + optimizer + "_barnes_hut";
    in.trace->note("neighbours", std::to_string(k));
    in.trace->note("neighbour_graph", graph.approximate ? "approximate" : "exact");
    if (mu > 0) {
      in.trace->note("mu", trace_number(mu));
      in.trace->note("cg_iterations", std::to_string(cg_total));
      if (obj.preconditioner_nonzeros() > 0) {
        in.trace->note("preconditioner_nonzeros", std::to_string(obj.preconditioner_nonzeros()));
        in.trace->note("preconditioner_seconds", trace_number(obj.preconditioner_seconds()));
      }
    }
  }
  if (!Y_.is_finite()) throw MethodError("ee: the embedding diverged (fix: lower 'lambda')");
}

namespace {

// The parameters the contract and the budget both read.
struct EeKeys {
  ChoiceKey weights =
      keywords::weights("perplexity", {"perplexity", "gaussian"},
                        "w+ are entropic affinities at 'perplexity' (symmetrised) or "
                        "exp(-r^2/(2 kernel_width^2))");
  RealKey perplexity = keywords::perplexity(20.0, "the w+ affinities");
  IntKey iterations = keywords::iterations(1000, 1000000, "the chosen optimiser");
  ChoiceKey optimizer =
      keywords::optimizer("sd", {"sd", "fp", "gd"},
                          "sd: spectral direction; fp: fixed point; gd: gradient descent (all "
                          "with backtracking Armijo c = 0.1, rho = 0.8)");
  ChoiceKey gradient =
      keywords::gradient("auto", {"exact", "barnes_hut", "auto"},
                         "exact (dense w+, O(n^2) per iteration); barnes_hut (w+ on the kNN "
                         "graph, repulsion on the space tree, spectral direction by "
                         "warm-started CG: Vladymyrov & Carreira-Perpinan 2014); auto: "
                         "barnes_hut from 5,000 points when dims <= 3 and weights: perplexity");
  // Added after results existed: at their defaults they stay out of the task keys.
  IntKey precondition_neighbours =
      IntKey(ParamSpec::integer("precondition_neighbours", 5, 0, 1000,
                                "sd on barnes_hut: the CG preconditioner is a sparse LU factor of "
                                "4 L + mu I on each point's this many largest w+, computed once; "
                                "0 = Jacobi"))
          .with(keywords::unkeyed);
};

MethodInfo ee_info() {
  MethodInfo m = describe_method(
      "ee", "neighbour",
      "elastic embedding: Gaussian attraction, elastic repulsion on squared input "
      "distances; spectral-direction optimiser (transductive)",
      "Carreira-Perpinan 2010, ICML (eq. 1-4); Vladymyrov & Carreira-Perpinan 2012, "
      "ICML (spectral direction); DEE paper eq. 1-4");
  const auto [weights, perplexity, iterations, optimizer, gradient, precondition_neighbours] =
      EeKeys{};
  const RealKey kernel_width = keywords::kernel_width(1.0, "");  // weights: gaussian only
  const RealKey lambda =
      keywords::lambda(100.0, std::nullopt, true, "the repulsion (w+ and w- each sum to one)");
  const RealKey tolerance = keywords::tolerance(1e-3, 1.0, "when |Y_new - Y| <= tolerance |Y|");
  const RealKey mu =
      keywords::ridge(1e-10, 1e-15, 1.0, false, "sd: on 4 L+ relative to its mean diagonal")
          .with(keywords::formerly("mu"));
  const RealKey theta = keywords::theta(0.5);
  const IntKey neighbours =
      keywords::neighbours(0, 0, 1000000, "the sparse w+ (barnes_hut); 0 = 3 x perplexity");
  const ChoiceKey neighbour_graph = keywords::neighbour_graph();
  const GraphPathKeys path{gradient, theta, neighbours, neighbour_graph};
  // Added after results existed: at their defaults they stay out of the task keys.
  const IntKey cg_iterations =
      IntKey(ParamSpec::integer("cg_iterations", 0, 0, 100000,
                                "sd on barnes_hut: CG steps per spectral direction; 0 = 5 with the "
                                "factored preconditioner, 50 with Jacobi"))
          .with(keywords::unkeyed);
  m.params = {weights,
              perplexity,
              kernel_width,
              lambda,
              optimizer,
              iterations,
              tolerance,
              mu,
              gradient,
              theta,
              neighbours,
              neighbour_graph,
              precondition_neighbours,
              cg_iterations};
  m.iterative = true;
  m.out_of_sample = false;
  m.max_dim = [gradient](const DataShape& s, const ParamSet& p) {
    const arma::uword lim = s.n > 0 ? s.n - 1 : 0;
    return gradient(p) == "barnes_hut" ? std::min<arma::uword>(3, lim) : lim;
  };
  m.check_setting = [gradient, weights](const ParamSet& p) -> std::string {
    if (gradient(p) == "barnes_hut" && weights(p) != "perplexity")
      return "gradient: barnes_hut needs 'weights: perplexity' (its w+ live on the kNN graph; "
             "fix: weights: perplexity, or gradient: exact)";
    return "";
  };
  m.make = [=](const ParamSet& p) {
    EeSetting e;
    e.perplexity_weights = weights(p) == "perplexity";
    e.perplexity = perplexity(p);
    e.kernel_width = kernel_width(p);
    e.lambda = lambda(p);
    e.optimizer = optimizer(p);
    e.iterations = int(iterations(p));
    e.tolerance = tolerance(p);
    e.mu = mu(p);
    path.read(p, e);
    e.precondition_neighbours = arma::uword(precondition_neighbours(p));
    e.cg_iterations = cg_iterations(p);
    return std::make_unique<ElasticEmbedding>(e);
  };
  return m;
}

Budget ee_budget() {
  // The preconditioner's LU factors, 12 bytes an entry and half as much again while SuperLU
  // factors: entries measured on Fashion-MNIST at k = 5 (0.47 M at 5,000 points, 6.2 M at
  // 20,000, 50.6 M at 60,000: about n^1.91) and at k = 3, 10 on 20,000 (about k^1.5).
  const std::string fmnist = "Fashion-MNIST, 50-D, perplexity 20";
  const std::string run = "ee's sd path, SuperLU factor entries (66228c2, 2026-11-27)";
  const FittedConstants fitted{
      {"lu_bytes_per_entry", 18.0, "SuperLU: 12 bytes an entry, x 1.5 while factoring", run},
      {"lu_entries_scale", 0.0378, fmnist + ", k = 5, 5,000 / 20,000 / 60,000 points", run},
      {"lu_entries_exponent", 1.91, fmnist + ", k = 5, 5,000 / 20,000 / 60,000 points", run},
      {"reference_k", 5.0, fmnist, run},
      {"lu_k_exponent", 1.5, fmnist + ", k = 3, 5, 10 at 20,000 points", run},
  };
  const double lu_bytes = fitted("lu_bytes_per_entry"), lu_scale = fitted("lu_entries_scale"),
               lu_exp = fitted("lu_entries_exponent"), ref_k = fitted("reference_k"),
               k_exp = fitted("lu_k_exponent");
  const EeKeys keys;
  // Whether a setting runs the linear-time path, for the estimates.
  const auto barnes_hut = [keys](const TaskSize& z) {
    return ee_uses_barnes_hut(keys.gradient(z.p), keys.weights(z.p) == "perplexity", z.shape.n,
                              z.dim);
  };
  TaskEstimate cost = [=](const TaskSize& z) {
    const double n = z.n, it = double(keys.iterations(z.p));
    if (barnes_hut(z))
      return n * z.d * 3.0 * keys.perplexity(z.p) +
             20.0 * it * n * (std::log2(n + 1.0) * (20.0 + z.d) + 3.0 * keys.perplexity(z.p));
    return n * n * (z.d + n / 3.0) + 20.0 * it * n * n * (z.q + 3);
  };
  TaskEstimate memory = [=](const TaskSize& z) {
    if (!barnes_hut(z)) return memory_default(z.shape, z.dim);
    // Sparse w+ and the CG matrix (about 2 x 3 perplexity entries per point each), the inputs in
    // tree order with prefix and node sums (about 4 copies of X), the optimiser's vectors.
    const double n = z.n, d = z.d, kk = 3.0 * keys.perplexity(z.p);
    double bytes = 8.0 * (4.0 * n * kk * 2.0 + 6.0 * n * d + 40.0 * n * z.q);
    // The preconditioner's LU factors (fitted above).
    const double k = double(keys.precondition_neighbours(z.p));
    if (keys.optimizer(z.p) == "sd" && k > 0)
      bytes += lu_bytes * lu_scale * std::pow(n, lu_exp) * std::pow(k / ref_k, k_exp);
    return bytes;
  };
  return make_budget(std::move(cost), std::move(memory), fitted);
}

}  // namespace

DRBENCH_METHOD(ee_info, ee_budget())

}  // namespace drbench
