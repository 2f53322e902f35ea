// Maximum variance unfolding (Weinberger & Saul, "Unsupervised learning of image manifolds by
// semidefinite programming", IJCV 70, 2006, section 3; also called semidefinite embedding):
// the Gram matrix K of the embedding maximises its variance trace(K) subject to K centred
// (sum_ij K_ij = 0), positive semi-definite and isometric on the neighbour graph,
// K_ii - 2 K_ij + K_jj = |x_i - x_j|^2 for every edge (i, j) of the symmetrised kNN graph; the
// embedding is the top eigenvectors of K scaled by the square roots of their eigenvalues. The
// semidefinite program is solved by DSDP (methods/manifold/sdp_solver.hpp). Transductive: the
// paper defines no map for new points (drtoolbox's mvu has none either). The paper's optional
// constraints between points that share a neighbour are not imposed (drtoolbox imposes only the
// kNN edges too). With edge_lengths: at_most the edges may shrink (landmark MVU's inequalities).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "methods/manifold/mvu/mvu.hpp"
#include "methods/manifold/sdp_solver.hpp"

namespace drbench {

void Mvu::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  const arma::sp_mat G = geodesic_graph(
      in.X, GeodesicGraphSpec::knn_graph(s_.neighbours, s_.connect), "mvu", in.trace);
  // Distances in units of the mean squared edge, so DSDP's tolerances mean the same on any data.
  const double scale = mean_squared_edge(G);
  std::vector<RankOneConstraint> cons = isometry_constraints(G, scale, s_.at_most);
  RankOneConstraint centre;  // 1' K 1 = 0
  centre.index.resize(n);
  for (arma::uword i = 0; i < n; ++i) centre.index[i] = int(i);
  centre.value.assign(n, 1.0 / std::sqrt(double(n)));
  cons.push_back(std::move(centre));
  SdpOptions opt;
  opt.max_iterations = int(s_.iterations);
  opt.gap_tolerance = s_.tolerance;
  const SdpSolution sol = solve_rank_one_sdp(n, arma::mat(), cons, opt, in.trace, "mvu");
  K_ = scale * sol.K;
  max_violation_ = sol.max_violation;
  Y_ = top_embedding(K_, in.dim);
}

namespace {

// The parameters the contract and the budget both read.
struct MvuKeys {
  IntKey neighbours =
      keywords::neighbours(6, 2, 100, "the graph whose edge lengths the embedding keeps");
};

MethodInfo mvu_info() {
  MethodInfo m = describe_method(
      "mvu", "manifold",
      "maximum variance unfolding: the most spread-out Gram matrix isometric on the kNN graph "
      "(an SDP, by DSDP); transductive",
      "Weinberger & Saul, IJCV 70 (2006), section 3, eq. 5-7");
  const auto [neighbours] = MvuKeys{};
  const ChoiceKey disconnected = keywords::disconnected("connect");
  const ChoiceKey lengths = edge_lengths("kept");
  const IntKey iterations = dsdp_iterations();
  const RealKey tolerance = dsdp_tolerance();
  m.params = {neighbours, disconnected, lengths, iterations, tolerance};
  m.out_of_sample = false;
  m.iterative = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 1 : 0; };
  m.advise = [neighbours](const DataShape& s, const ParamSet& p) -> std::string {
    if (s.n <= kMvuAdviseLimit) return {};
    return "mvu solves an SDP with an n x n matrix and about n x neighbours = " +
           std::to_string(std::int64_t(mvu_constraints(s.n, neighbours(p)))) +
           " constraints, whose Schur matrix DSDP factors every iteration (cubic in the "
           "constraints): at " +
           std::to_string(s.n) + " points use landmark_mvu";
  };
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Mvu>(MvuSetting{arma::uword(neighbours(p)),
                                            disconnected(p) == "connect", lengths(p) == "at_most",
                                            arma::uword(iterations(p)), tolerance(p)});
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(mvu_info,
               make_budget(
                   [keys = MvuKeys{}](const TaskSize& z) {
                     return sdp_cost(z.n, mvu_constraints(z.shape.n, keys.neighbours(z.p)));
                   },
                   [keys = MvuKeys{}](const TaskSize& z) {
                     const double n = z.n, k = double(keys.neighbours(z.p));
                     return kProcessBaseBytes +
                            sdp_memory(n, mvu_constraints(z.shape.n, keys.neighbours(z.p))) +
                            8.0 * n * (3.0 * n + z.d + 2.0 * z.q) + 40.0 * n * k;
                   }))
}  // namespace drbench
