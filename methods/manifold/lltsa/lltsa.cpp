#include "methods/manifold/lltsa/lltsa.hpp"

#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "methods/common/graph_projection.hpp"
#include "methods/common/pca_pre_step.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

void Lltsa::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols, k = s_.neighbours;
  if (k < in.dim + 1)
    throw MethodError("lltsa: dims=" + std::to_string(in.dim) + " needs neighbours >= " +
                      std::to_string(in.dim + 1) + "; raise 'neighbours'");
  if (k > n)
    throw MethodError("lltsa: neighbours=" + std::to_string(k) + " needs at least " +
                      std::to_string(k) + " training points; lower 'neighbours'");
  const PcaReduced pre = pca_reduce(in.X, s_.pca_ratio, in.dim, "lltsa");
  const arma::mat& Z = pre.Z;
  const arma::sp_mat B = ltsa_alignment(Z, patch_neighbours(Z, k, true), in.dim);
  const arma::mat ZB = Z * B;  // r x n: the sparse product, no dense n x n matrix
  GraphProjection g = solve_linearised(pre, ZB * Z.t(), in.dim);
  set_eigen_projection(in.X, std::move(g.mean), std::move(g.A), std::move(g.values));
}

namespace {

// The parameters the contract and the budget both read.
struct LltsaKeys {
  IntKey neighbours =
      keywords::neighbours(12, 2, 1000, "of every local patch (the point itself included)");
};

MethodInfo lltsa_info() {
  MethodInfo m = describe_method(
      "lltsa", "linear",
      "linear local tangent space alignment: X B X' a = l X X' a on LTSA's alignment matrix",
      "Zhang, Yang, Zhao & Zhou, Linear local tangent space alignment and application to face "
      "recognition, Neurocomputing 70 (2007), section 3");
  const auto [neighbours] = LltsaKeys{};
  const RealKey pca_ratio = pca_ratio_key();
  m.params = {neighbours, pca_ratio};
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Lltsa>(LltsaSetting{arma::uword(neighbours(p)), pca_ratio(p)});
  };
  return m;
}

}  // namespace
// kNN distances (n^2 d), a k x k eigenproblem per point, the scatter matrices and a d x d
// generalized eigenproblem. Memory: the kNN search's n x n distances, B's triplets (k^2 a point)
// and its sparse form, Z B.
DRBENCH_METHOD(lltsa_info, make_budget(local_projection_cost(LltsaKeys{}.neighbours),
                                       [keys = LltsaKeys{}](const TaskSize& z) {
                                         const double n = z.n, k = double(keys.neighbours(z.p));
                                         return memory_linear(z.shape, z.dim) + 8.0 * n * n +
                                                40.0 * k * k * n + 16.0 * n * z.d;
                                       }))
}  // namespace drbench
