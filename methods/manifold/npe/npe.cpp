#include "methods/manifold/npe/npe.hpp"

#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "methods/common/graph_projection.hpp"
#include "methods/common/pca_pre_step.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

void Npe::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols, k = s_.neighbours;
  if (k >= n)
    throw MethodError("npe: neighbours=" + std::to_string(k) + " needs more than " +
                      std::to_string(k) + " training points; lower 'neighbours'");
  const PcaReduced pre = pca_reduce(in.X, s_.pca_ratio, in.dim, "npe");
  const arma::mat& Z = pre.Z;
  const arma::umat nn = neighbour_graph(Z, k, {GraphKind::exact}).index;
  // E = Z (I - W)': each column the point minus its reconstruction, so Z M Z' = E E' without the
  // n x n matrix M.
  arma::mat E = Z;
  for (arma::uword i = 0; i < n; ++i) {
    const arma::mat N = Z.cols(nn.col(i));
    E.col(i) -= N * reconstruction_weights(Z.col(i), N, s_.ridge);
  }
  GraphProjection g = solve_linearised(pre, E * E.t(), in.dim);
  set_eigen_projection(in.X, std::move(g.mean), std::move(g.A), std::move(g.values));
}

namespace {

// The parameters the contract and the budget both read.
struct NpeKeys {
  IntKey neighbours = keywords::neighbours(12, 1, 1000, "of the LLE reconstruction");
};

MethodInfo npe_info() {
  MethodInfo m = describe_method(
      "npe", "linear",
      "neighbourhood preserving embedding: linear LLE, X M X' a = l X X' a on LLE's weights",
      "He, Cai, Yan & Zhang, Neighborhood Preserving Embedding, ICCV 2005, section 2");
  const auto [neighbours] = NpeKeys{};
  const RealKey ridge = keywords::ridge(1e-3, 0.0, std::nullopt, true,
                                        "on the local Gram matrix, times its trace (as lle)");
  const RealKey pca_ratio = pca_ratio_key();
  m.params = {neighbours, ridge, pca_ratio};
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Npe>(NpeSetting{arma::uword(neighbours(p)), ridge(p), pca_ratio(p)});
  };
  return m;
}

}  // namespace
// kNN distances (n^2 d), a k x k solve per point, the reduced scatter matrices (n d^2) and a
// d x d generalized eigenproblem. Memory: the kNN search's n x n distances, the reduced data and
// its residuals (two n x d arrays).
DRBENCH_METHOD(npe_info,
               make_budget(local_projection_cost(NpeKeys{}.neighbours), [](const TaskSize& z) {
                 return memory_linear(z.shape, z.dim) + 8.0 * z.n * z.n + 16.0 * z.n * z.d;
               }))
}  // namespace drbench
