#include "methods/neighbour/dee/dee.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/trace_number.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/dee/dee_bh_objective.hpp"
#include "methods/neighbour/dee/dee_objective.hpp"
#include "methods/neighbour/linear_embedding.hpp"
#include "methods/neighbour/linear_embedding_budget.hpp"

namespace drbench {

template <class Obj>
arma::mat Dee::optimise(Obj& obj, const arma::mat& A0, const FitInput& in, double& mu) {
  OptimOptions opt = relative_change_options(s_.iterations, s_.tolerance, in.trace);
  std::string which = s_.optimizer;
  if (which == "ld" || which == "fp") {
    mu = which == "ld" ? obj.factor_laplacian(s_.mu) : obj.factor_fixed_point(s_.mu);
    opt.direction = [&obj](const arma::vec&, const arma::vec& g) {
      return obj.preconditioned_direction(g);
    };
    which = "descent";
  }
  const OptimResult r = minimize(which, obj, arma::vectorise(A0), opt);
  iterations_ = r.iterations;
  objective_ = r.f;
  stop_reason_ = r.stop_reason;
  return arma::reshape(r.x, in.dim, in.X.n_rows);
}

void Dee::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  require_dim(in.dim, in.X.n_rows, "at most D projection directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  double mu = 0.0, kernel_width = 0.0, w_scale = 1.0;
  arma::mat A;
  const bool barnes_hut = linear_embedding_uses_barnes_hut(s_.gradient, in.X.n_cols, in.dim);
  if (!barnes_hut) {
    DeeWeights w = dee_weights(Xc, y, s_.kernel_width);
    kernel_width = w.kernel_width;
    // balanced: w- rescaled to the total of w+, so that lambda is a ratio of the two terms'
    // weights rather than a number tied to the pixel scale and to how many pairs each term has.
    w_scale = s_.balanced ? arma::accu(w.Wp) / arma::accu(w.Wm) : 1.0;
    w.Wm *= w_scale;
    DeeObjective obj(Xc, std::move(w.Wp), std::move(w.Wm), s_.lambda, in.dim);
    const arma::mat A0 = projection_start(s_.pca_start, in.dim, in.X, Xc, in.rng);
    A = optimise(obj, A0, in, mu);
  } else {
    require_barnes_hut_dims("dee", in.dim);
    // The start first, so that a seed starts both paths at the same A0.
    const arma::mat A0 = projection_start(s_.pca_start, in.dim, in.X, Xc, in.rng);
    const arma::uword classes = arma::max(y) + 1;
    const double different = pair_distance_totals(Xc, y).different();
    if (s_.all_pairs_attraction) {
      arma::mat S, Sd;
      double sp = 0.0;
      dee_all_pairs_scatter(Xc, y, classes, s_.kernel_width, S, Sd, &sp, &kernel_width);
      if (!(sp > 0))
        throw MethodError(
            "dee: every attractive weight underflowed to 0 (fix: raise 'kernel_width')");
      w_scale = s_.balanced ? sp / different : 1.0;
      DeeBhObjective obj(Xc, y, classes, std::move(S), std::move(Sd), s_.lambda * w_scale, in.dim,
                         s_.theta, in.threads);
      A = optimise(obj, A0, in, mu);
      if (in.trace) in.trace->note("attraction", "all_pairs");
    } else {
      GraphOptions go = fit_graph_options(s_.neighbour_graph, in.threads, in.rng);
      const arma::sp_mat Wp =
          dee_sparse_weights(Xc, y, classes, s_.neighbours, s_.kernel_width, go, &kernel_width);
      const double sp = arma::accu(Wp);
      if (!(sp > 0))
        throw MethodError(
            "dee: every attractive weight underflowed to 0 (fix: raise 'kernel_width')");
      w_scale = s_.balanced ? sp / different : 1.0;
      DeeBhObjective obj(Xc, y, classes, Wp, s_.lambda * w_scale, in.dim, s_.theta, in.threads);
      A = optimise(obj, A0, in, mu);
      if (in.trace)
        note_class_graph(*in.trace, in.X, s_.neighbours, go, "attractive_edges", Wp.n_nonzero);
    }
  }
  if (in.trace) {
    in.trace->optimizer = barnes_hut ? s_.optimizer + "_barnes_hut" : s_.optimizer;
    in.trace->note("kernel_width", trace_number(kernel_width));
    if (mu > 0) in.trace->note("mu", trace_number(mu));
    if (s_.balanced) in.trace->note("lambda_raw", trace_number(s_.lambda * w_scale));
    // When D > N - C the within-class scatter has a null space in which every training class is
    // a single point: there the attraction is 0 and the repulsion decays as A grows, so E's
    // infimum 0 lies along it (DCV's subspace), and LD with a small mu heads there (see
    // results/dee_dims.md). The note makes such fits recognisable in the results file.
    const arma::uword classes = arma::uvec(arma::unique(y)).n_elem;
    const arma::uword n = in.X.n_cols, D = in.X.n_rows;
    if (D + classes > n)
      in.trace->note("within_class_null_dim_min", std::to_string(D + classes - n));
  }
  set_projection(in.X, mean, A.t());
}

namespace {

// Work memory of the linear-time path, bytes: the centred inputs and, in the walk, their copy in
// tree order with overall and per-class prefix sums and the node sums (about 5 n d doubles); the
// class graph's search (a class's reference copy and the search's blocks, about 2 n d doubles);
// the sparse w+ while built (at most 2 k n entries, about 50 bytes each with the edge list); the
// class rank table (4 C n bytes); embeddings, forces and prefix sums of y (about 20 n dim doubles).
double dee_linear_time_bytes(const DataShape& s, arma::uword neighbours, bool all_pairs,
                             arma::uword dim) {
  const double n = double(s.n), d = double(s.d), k = double(neighbours);
  const double classes = double(std::max<std::size_t>(s.n_classes, 2));
  // attraction all_pairs: instead of the graph, a class's copy and one 512-column block of w+
  // with its products (sized for the largest class, taken as twice the mean).
  const double nc = 2.0 * n / classes;
  const double attraction = all_pairs ? 8.0 * (nc * d + 2.0 * 512.0 * nc) : 100.0 * k * n;
  return 8.0 * (7.0 * n * d + 20.0 * n * double(dim)) + attraction + 4.0 * classes * n;
}

// The parameters the contract and the budget both read.
struct DeeKeys {
  LinearEmbeddingKeys k = linear_embedding_keys(
      {"the chosen optimiser (the paper's 1000)",
       "when |A_new - A| <= tolerance |A| (the paper's 1e-3)",
       "start of A: small Gaussian rows, or the leading principal directions",
       "exact (w+ on every same-class pair, O(n^2) time and memory); barnes_hut (w+ on the "
       "class-restricted kNN graph, different-class repulsion by Barnes-Hut on Y = A X, dims <= "
       "3); auto: barnes_hut from 5,000 points when dims <= 3",
       "barnes_hut: the sparse w+ ties each point to this many nearest same-class points"});
  // Added after results existed: at its default it stays out of the task keys.
  ChoiceKey attraction =
      ChoiceKey(ParamSpec::choice("attraction", "knn", {"knn", "all_pairs"},
                                  "barnes_hut: w+ on the class-restricted kNN graph, or on every "
                                  "same-class pair as the exact path (its D x D scatter formed "
                                  "once in O(sum_c n_c^2 D) time and O(n_c) memory per column "
                                  "block)"))
          .with(keywords::unkeyed);
};

MethodInfo dee_info() {
  const auto [k, attraction] = DeeKeys{};
  MethodInfo m = linear_embedding_info(
      "dee",
      "discriminative elastic embedding: linear map, same-class heat attraction, "
      "other-class elastic repulsion",
      "Zheng, Zhang, Cattani & Wang, Comput. Math. Methods Med. 2014, art. 594379, "
      "eq. 10-17 (derivation: methods/neighbour/dee/dee_objective.hpp)",
      k);
  const RealKey lambda = keywords::lambda(
      1.0, 1e12, false, "the repulsion between different classes (w- = squared input distance)");
  const ChoiceKey repulsion = ParamSpec::choice(
      "repulsion", "balanced", {"raw", "balanced"},
      "raw: w- = squared input distance (eq. 11); balanced (default): w- scaled so that "
      "its total equals that of w+ (lambda then weighs the terms' totals)");
  const ChoiceKey optimizer =
      keywords::optimizer("ld", {"ld", "fp", "cg", "gd"},
                          "ld: Laplacian direction; fp: fixed point; cg: conjugate gradients; gd: "
                          "gradient descent (all with a Wolfe line search)");
  const RealKey mu = keywords::ridge(1e-3, 1e-12, 1e6, false,
                                     "ld/fp: on X L+ X^T (X D+ X^T) relative to its trace / D; "
                                     "needed when D > N and along class-mean directions")
                         .with(keywords::formerly("mu"));
  m.params = {k.kernel_width,    k.width,     lambda, repulsion,  k.init,  optimizer,
              k.iterations,      k.tolerance, mu,     k.gradient, k.theta, k.neighbours,
              k.neighbour_graph, attraction};
  m.check_setting = [k, attraction](const ParamSet& p) -> std::string {
    if (k.gradient(p) == "exact" && attraction(p) == "all_pairs")
      return "attraction: all_pairs belongs to the linear-time path, and the exact path always "
             "uses every same-class pair (fix: gradient: barnes_hut or auto, or drop attraction)";
    return "";
  };
  m.make = [=](const ParamSet& p) {
    DeeSettings s;
    k.read(p, s);
    s.lambda = lambda(p);
    s.balanced = repulsion(p) == "balanced";
    s.optimizer = optimizer(p);
    s.mu = mu(p);
    s.all_pairs_attraction = attraction(p) == "all_pairs";
    return std::make_unique<Dee>(s);
  };
  return m;
}

Budget dee_budget() {
  const DeeKeys keys;
  const LinearEmbeddingKeys& k = keys.k;
  // Dense: D2, the two class masks, the kernel and w+, w- while the weights are formed; w+, w-
  // and K while fitting.
  TaskEstimate dense_cost = [=](const TaskSize& z) {
    const double n = z.n, d = z.d, it = double(k.iterations(z.p));
    const double per_iter = z.q * n * (n + d) + 2.0 * n * n;
    return d * d * (d / 3.0 + n) + 50.0 * it * per_iter / 10;
  };
  // Linear time: the class graph's search, then per evaluation Y = A X, F X^T and the walk (O(d)
  // a cell); all_pairs: two Gram-sized products per class, about n^2 d / C in all.
  TaskEstimate bh_cost = [=](const TaskSize& z) {
    const double n = z.n, d = z.d, it = double(k.iterations(z.p)), nb = double(k.neighbours(z.p));
    const double classes = std::max(z.classes, 1.0);
    const double setup =
        keys.attraction(z.p) == "all_pairs" ? 2.0 * n * n * d / classes : n * d * (nb + d);
    return setup + 5.0 * it * n * (2.0 * d * z.q + std::log2(n + 1.0) * (20.0 + 2.0 * d));
  };
  TaskEstimate bh_memory = [=](const TaskSize& z) {
    return memory_linear(z.shape, z.dim) +
           dee_linear_time_bytes(z.shape, arma::uword(k.neighbours(z.p)),
                                 keys.attraction(z.p) == "all_pairs", z.dim);
  };
  return linear_embedding_budget(k, std::move(dense_cost), 6.0, std::move(bh_cost),
                                 std::move(bh_memory));
}

}  // namespace
DRBENCH_METHOD(dee_info, dee_budget())
}  // namespace drbench
