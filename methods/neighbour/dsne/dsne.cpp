#include "methods/neighbour/dsne/dsne.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/dsne/dsne_bh_objective.hpp"
#include "methods/neighbour/dsne/dsne_objective.hpp"
#include "methods/neighbour/linear_embedding.hpp"
#include "methods/neighbour/linear_embedding_budget.hpp"

namespace drbench {

void Dsne::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  require_dim(in.dim, in.X.n_rows, "at most D projection directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  const OptimOptions opt = relative_change_options(s_.iterations, s_.tolerance, in.trace);
  double t = 0.0;
  OptimResult r;
  if (!linear_embedding_uses_barnes_hut(s_.gradient, in.X.n_cols, in.dim)) {
    arma::mat P = dsne_input_similarities(Xc, y, s_.kernel_width, &t);
    DsneObjective obj(Xc, y, std::move(P), in.dim);
    const arma::mat A0 = projection_start(s_.pca_start, in.dim, in.X, Xc, in.rng);
    r = minimize("cg", obj, arma::vectorise(A0), opt);
  } else {
    require_barnes_hut_dims("dsne", in.dim);
    // The start first, so that a seed starts both paths at the same A0.
    const arma::mat A0 = projection_start(s_.pca_start, in.dim, in.X, Xc, in.rng);
    GraphOptions go = fit_graph_options(s_.neighbour_graph, in.threads, in.rng);
    const arma::uword classes = arma::max(y) + 1;
    arma::sp_mat P =
        dsne_sparse_similarities(Xc, y, classes, s_.neighbours, s_.kernel_width, go, &t);
    const arma::uword edges = P.n_nonzero;
    DsneBhObjective obj(Xc, y, classes, std::move(P), in.dim, s_.theta, in.threads);
    r = minimize("cg", obj, arma::vectorise(A0), opt);
    if (in.trace) {
      in.trace->optimizer = "cg_barnes_hut";
      note_class_graph(*in.trace, in.X, s_.neighbours, go, "similarity_edges", edges);
    }
  }
  objective_ = r.f;
  if (in.trace) in.trace->note("kernel_width", std::to_string(std::sqrt(t / 2.0)));
  set_projection(in.X, mean, arma::reshape(r.x, in.dim, in.X.n_rows).t());
}

namespace {

// The parameters the contract and the budget both read.
struct DsneKeys {
  LinearEmbeddingKeys k = linear_embedding_keys(
      {"conjugate gradients", "when |A_new - A| <= tolerance |A|",
       "start: small Gaussian rows, or the leading principal directions (a start an outside "
       "implementation can reproduce, e.g. scripts/dsne_reference.py)",
       "exact (P and Q on every pair, O(n^2) time and memory); barnes_hut (P on the same-class "
       "and different-class kNN graphs, both Student-t sums by Barnes-Hut on Y = A X, dims <= "
       "3); auto: barnes_hut from 5,000 points when dims <= 3",
       "barnes_hut: P ties each point to this many nearest same-class and as many nearest "
       "different-class points"});
};

MethodInfo dsne_info() {
  const auto [k] = DsneKeys{};
  MethodInfo m = linear_embedding_info(
      "dsne",
      "discriminative SNE: linear map, KL between Gaussian and Student-t similarities "
      "normalised within same-class and different-class pairs",
      "Zheng, Qiu, Jiang & Wang, J. Comput.-Aided Des. Comput. Graph. 24 (2012), as "
      "stated in Zheng et al., Comput. Math. Methods Med. 2014, eq. 5-8",
      k);
  m.params = {k.kernel_width, k.width, k.iterations, k.tolerance,      k.init,
              k.gradient,     k.theta, k.neighbours, k.neighbour_graph};
  m.make = [=](const ParamSet& p) {
    DsneSettings s;
    k.read(p, s);
    return std::make_unique<Dsne>(s);
  };
  return m;
}

Budget dsne_budget() {
  const LinearEmbeddingKeys k = DsneKeys{}.k;
  // Dense: D2, the two class masks, P and each group's index, distance and kernel vectors while
  // P is formed (about 8 n x n; 1.85 GB peak RSS measured at 5,000 points, data included).
  TaskEstimate dense_cost = [=](const TaskSize& z) {
    const double n = z.n, d = z.d, it = double(k.iterations(z.p));
    return 5.0 * it * (z.q * n * (n + d) + 4.0 * n * n) / 10;
  };
  // Linear time: the two class graphs' searches (the different-class one over about all
  // points), then per evaluation Y = A X, G X^T, the sparse attraction and the walk.
  TaskEstimate bh_cost = [=](const TaskSize& z) {
    const double n = z.n, d = z.d, it = double(k.iterations(z.p)), nb = double(k.neighbours(z.p));
    return n * n * d / 50.0 + 5.0 * it * n * (2.0 * d * z.q + 4.0 * nb + 20.0 * std::log2(n + 1.0));
  };
  // Centred inputs, a class's reference copy and the search's blocks (about 3 n d doubles); the
  // sparse P of two graphs while built (at most 4 k n entries, about 50 bytes each with the edge
  // lists); the rank table (4 C n bytes); embeddings, forces and prefix sums of y.
  TaskEstimate bh_memory = [=](const TaskSize& z) {
    const double n = z.n, d = z.d, nb = double(k.neighbours(z.p));
    const double classes = std::max(z.classes, 2.0);
    return memory_linear(z.shape, z.dim) + 8.0 * (3.0 * n * d + 30.0 * n * z.q) + 200.0 * nb * n +
           4.0 * classes * n;
  };
  return linear_embedding_budget(k, std::move(dense_cost), 8.0, std::move(bh_cost),
                                 std::move(bh_memory));
}

}  // namespace
DRBENCH_METHOD(dsne_info, dsne_budget())
}  // namespace drbench
