// Locally linear coordination (Teh & Roweis, "Automatic alignment of local representations",
// NIPS 15, 2003, section 3): a mixture of local linear models (methods/manifold/
// mixture_alignment.hpp) gives every point responsibilities r_nk and local coordinates z_nk; the
// global coordinates y_n = sum_k r_nk (L_k z_nk + l_k) = U_n' V are aligned by LLE's cost: with
// W the reconstruction weights of each point from its k nearest neighbours (eq. 2),
// sum_n |y_n - sum_j W_nj y_j|^2 = tr(V' U'(I - W)'(I - W) U V), minimised subject to unit
// covariance V'(U'U / n)V = I: the bottom generalised eigenvectors of (U'(I-W)'(I-W)U, U'U/n)
// after the constant one (eq. 7-8). New points map through the mixture and V (section 4).
// The mixture is drtoolbox's (mixture of probabilistic PCA, latent dimension = dims).
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "methods/manifold/local_alignment.hpp"
#include "methods/manifold/mixture_alignment.hpp"

namespace drbench {

namespace {

class Llc final : public MixtureAlignmentMethod {
 public:
  Llc(const MixtureSetting& s, arma::uword neighbours, double reg)
      : MixtureAlignmentMethod("llc", s), k_(neighbours), reg_(reg) {}

 protected:
  arma::mat alignment_cost(const arma::mat& X, const arma::mat& U, const arma::mat&,
                           const std::vector<arma::mat>&) const override {
    const arma::uword n = X.n_cols;
    if (k_ >= n)
      throw MethodError("llc: neighbours=" + std::to_string(k_) + " needs more than " +
                        std::to_string(k_) + " training points; lower 'neighbours'");
    const arma::umat nn = neighbour_graph(X, k_, {GraphKind::exact}).index;
    arma::mat E = U;  // (I - W) U, row by row
    for (arma::uword i = 0; i < n; ++i) {
      const arma::vec w = reconstruction_weights(X.col(i), X.cols(nn.col(i)), reg_);
      for (arma::uword j = 0; j < k_; ++j) E.row(i) -= w(j) * U.row(nn(j, i));
    }
    return E.t() * E / double(n);
  }

 private:
  arma::uword k_;
  double reg_;
};

// The parameters the contract and the budget both read.
struct LlcKeys {
  IntKey analysers = keywords::analysers(20, "local linear models of the mixture");
  IntKey iterations = keywords::iterations(200, 100000, "of the mixture's EM");
};

MethodInfo llc_info() {
  MethodInfo m =
      describe_method("llc", "manifold",
                      "locally linear coordination: a mixture of local PCA models aligned by LLE's "
                      "reconstruction cost; out-of-sample through the mixture",
                      "Teh & Roweis, NIPS 15 (2003), section 3, eq. 7-8");
  const auto [analysers, iterations] = LlcKeys{};
  const IntKey neighbours =
      keywords::neighbours(12, 1, 500, "the reconstruction weights of the alignment cost");
  const RealKey ridge = keywords::ridge(1e-3, 0.0, std::nullopt, true,
                                        "on the local Gram matrix of the reconstruction weights, "
                                        "times its trace (needed when k > d)");
  const RealKey tolerance = mixture_tolerance();
  m.params = {analysers, neighbours, ridge, iterations, tolerance};
  describe_mixture(m);
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Llc>(mixture_setting(p, analysers, iterations, tolerance),
                                 arma::uword(neighbours(p)), ridge(p));
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(llc_info, mixture_alignment_budget(LlcKeys{}.analysers, LlcKeys{}.iterations, true))
}  // namespace drbench
