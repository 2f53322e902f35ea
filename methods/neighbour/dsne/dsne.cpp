#include "methods/neighbour/dsne/dsne.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/neighbour_graph.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/dsne/dsne_bh_objective.hpp"
#include "methods/neighbour/dsne/dsne_objective.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

// From this many points `gradient: auto` takes the linear-time path: below it the dense path is
// seconds, and every committed DSNE result (at most 2,000 points) keeps its exact numbers.
constexpr arma::uword kAutoBarnesHut = 5000;

bool dsne_uses_barnes_hut(const std::string& g, arma::uword n, arma::uword dim) {
  if (g != "auto") return g == "barnes_hut";
  return n >= kAutoBarnesHut && dim <= 3;
}

void Dsne::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  require_dim(in.dim, in.X.n_rows, "at most D projection directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  OptimOptions opt;
  opt.max_iterations = s_.iterations;
  opt.x_tol = opt.f_tol = 0.0;
  opt.rel_x_tol = s_.tolerance;
  opt.trace = in.trace;
  double t = 0.0;
  OptimResult r;
  if (!dsne_uses_barnes_hut(s_.gradient, in.X.n_cols, in.dim)) {
    arma::mat P = dsne_input_similarities(Xc, y, s_.kernel_width, &t);
    DsneObjective obj(Xc, y, std::move(P), in.dim);
    const arma::mat A0 = s_.pca_start ? pca_projection_start(in.dim, in.X, 1e-2)
                                      : random_projection_start(in.dim, Xc, in.rng, 1e-2);
    r = minimize("cg", obj, arma::vectorise(A0), opt);
  } else {
    if (in.dim > 3)
      throw MethodError("dsne: gradient: barnes_hut works in 1 to 3 dimensions, asked for " +
                        std::to_string(in.dim) + " (fix: 'gradient: exact' or dims <= 3)");
    // The start first, so that a seed starts both paths at the same A0.
    const arma::mat A0 = s_.pca_start ? pca_projection_start(in.dim, in.X, 1e-2)
                                      : random_projection_start(in.dim, Xc, in.rng, 1e-2);
    GraphOptions go = fit_graph_options(s_.neighbour_graph, in.threads, in.rng);
    const arma::uword classes = arma::max(y) + 1;
    arma::sp_mat P =
        dsne_sparse_similarities(Xc, y, classes, s_.neighbours, s_.kernel_width, go, &t);
    const arma::uword edges = P.n_nonzero;
    DsneBhObjective obj(Xc, y, classes, std::move(P), in.dim, s_.theta, in.threads);
    r = minimize("cg", obj, arma::vectorise(A0), opt);
    if (in.trace) {
      in.trace->optimizer = "cg_barnes_hut";
      in.trace->note("neighbours", std::to_string(s_.neighbours));
      in.trace->note("similarity_edges", std::to_string(edges));
      in.trace->note("neighbour_graph",
                     use_approximate(in.X.n_cols, in.X.n_rows, s_.neighbours, go.kind)
                         ? "approximate"
                         : "exact");
    }
  }
  objective_ = r.f;
  if (in.trace) in.trace->note("kernel_width", std::to_string(std::sqrt(t / 2.0)));
  set_projection(in.X, mean, arma::reshape(r.x, in.dim, in.X.n_rows).t());
}

namespace {

// The input Gaussian of eq. 5 at relative width 1 has t = 2 sigma^2 = the mean squared
// same-class distance.
const char* const kSameClassReference = "the width whose t is the mean squared same-class distance";

MethodInfo dsne_info() {
  MethodInfo m;
  m.name = "dsne";
  m.family = "neighbour";
  m.summary =
      "discriminative SNE: linear map, KL between Gaussian and Student-t similarities "
      "normalised within same-class and different-class pairs";
  m.reference =
      "Zheng, Qiu, Jiang & Wang, J. Comput.-Aided Des. Comput. Graph. 24 (2012), as "
      "stated in Zheng et al., Comput. Math. Methods Med. 2014, eq. 5-8";
  const RealKey kernel_width = keywords::kernel_width(1.0, kSameClassReference);
  const ChoiceKey width = keywords::width("relative", kSameClassReference);
  const IntKey iterations = keywords::iterations(1000, 1000000, "conjugate gradients");
  const RealKey tolerance = keywords::tolerance(1e-3, 1.0, "when |A_new - A| <= tolerance |A|");
  const ChoiceKey init =
      ParamSpec::choice("init", "random", {"random", "pca"},
                        "start: small Gaussian rows, or the leading principal directions (a start "
                        "an outside implementation can reproduce, e.g. scripts/dsne_reference.py)");
  // Added after results existed: at their defaults they stay out of the task keys.
  const ChoiceKey gradient =
      keywords::gradient("auto", {"exact", "barnes_hut", "auto"},
                         "exact (P and Q on every pair, O(n^2) time and memory); "
                         "barnes_hut (P on the same-class and different-class kNN "
                         "graphs, both Student-t sums by Barnes-Hut on Y = A X, "
                         "dims <= 3); auto: barnes_hut from 5,000 points when dims <= 3")
          .with(keywords::unkeyed);
  const RealKey theta = keywords::theta(0.5).with(keywords::unkeyed);
  const IntKey neighbours = keywords::neighbours(30, 1, 1000000,
                                                 "barnes_hut: P ties each point to this many "
                                                 "nearest same-class and as many nearest "
                                                 "different-class points")
                                .with(keywords::unkeyed);
  const ChoiceKey neighbour_graph = keywords::neighbour_graph().with(keywords::unkeyed);
  m.params = {kernel_width, width, iterations, tolerance,      init,
              gradient,     theta, neighbours, neighbour_graph};
  m.supervised = true;
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.max_dim = [gradient](const DataShape& s, const ParamSet& p) {
    return gradient(p) == "barnes_hut" ? std::min<arma::uword>(3, s.d) : s.d;
  };
  m.cost = [=](const DataShape& s, const ParamSet& p, arma::uword dim) {
    const double n = double(s.n), d = double(s.d), it = double(iterations(p));
    if (dsne_uses_barnes_hut(gradient(p), s.n, dim)) {
      // The two class graphs' searches (the different-class one over about all points), then
      // per evaluation Y = A X, G X^T, the sparse attraction and the walk.
      const double k = double(neighbours(p));
      return n * n * d / 50.0 +
             5.0 * it * n * (2.0 * d * dim + 4.0 * k + 20.0 * std::log2(n + 1.0));
    }
    return 5.0 * it * (double(dim) * s.n * (s.n + s.d) + 4.0 * s.n * s.n) / 10;
  };
  m.memory = [=](const DataShape& s, const ParamSet& p, arma::uword dim) {
    // Dense: D2, the two class masks, P and each group's index, distance and kernel vectors
    // while P is formed (about 8 n x n; 1.85 GB peak RSS measured at 5,000 points, data included).
    if (!dsne_uses_barnes_hut(gradient(p), s.n, dim)) return memory_dense(s, dim, 8.0, 0.0);
    // Centred inputs, a class's reference copy and the search's blocks (about 3 n d doubles); the
    // sparse P of two graphs while built (at most 4 k n entries, about 50 bytes each with the
    // edge lists); the rank table (4 C n bytes); embeddings, forces and prefix sums of y.
    const double n = double(s.n), d = double(s.d), k = double(neighbours(p));
    const double classes = double(std::max<std::size_t>(s.n_classes, 2));
    return memory_linear(s, dim) + 8.0 * (3.0 * n * d + 30.0 * n * double(dim)) + 200.0 * k * n +
           4.0 * classes * n;
  };
  m.make = [=](const ParamSet& p) {
    DsneSettings s;
    s.kernel_width = {kernel_width(p), width(p) == "relative"};
    s.iterations = int(iterations(p));
    s.tolerance = tolerance(p);
    s.pca_start = init(p) == "pca";
    s.gradient = gradient(p);
    s.theta = theta(p);
    s.neighbours = static_cast<arma::uword>(neighbours(p));
    s.neighbour_graph = neighbour_graph(p);
    return std::make_unique<Dsne>(s);
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(dsne_info)
}  // namespace drbench
