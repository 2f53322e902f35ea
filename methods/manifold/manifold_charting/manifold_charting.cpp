// Manifold charting (Brand, "Charting a manifold", NIPS 15, 2003, section 4): a mixture of local
// linear models (methods/manifold/mixture_alignment.hpp) whose charts are aligned so that where
// two charts share a point they agree on its global coordinates: with u_nk = [z_nk; 1] and chart
// maps G_k (dims x (q + 1)), minimise
//   sum_n sum_{k,j} r_nk r_nj |G_k u_nk - G_j u_nj|^2 / 2 = tr(G (D - U'U) G')
// (D = blockdiag_k sum_n r_nk u_nk u_nk', U's rows r_nk u_nk stacked; sum_j r_nj = 1), subject
// to unit covariance of the global coordinates y_n = sum_k r_nk G_k u_nk: the bottom generalised
// eigenvectors of (D - U'U, U'U / n) after the constant one. New points map through the mixture
// and G. The mixture is drtoolbox's (mixture of probabilistic PCA fitted by plain EM, latent
// dimension = dims) rather than the paper's MAP fit with its chart-coupling prior.
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "methods/manifold/manifold_charting/manifold_charting.hpp"
#include "methods/manifold/mixture_alignment.hpp"

namespace drbench {

arma::mat charting_cost(const arma::mat& U, const arma::mat& R, const std::vector<arma::mat>& Z) {
  const arma::uword n = U.n_rows, m = R.n_cols, p = U.n_cols / m, q = p - 1;
  arma::mat A = -U.t() * U;
  for (arma::uword k = 0; k < m; ++k) {
    arma::mat Uk(p, n);  // u_nk = [z_nk; 1]
    Uk.rows(0, q - 1) = Z[k];
    Uk.row(q).ones();
    const arma::mat Wk = Uk.each_row() % R.col(k).t();
    A.submat(k * p, k * p, k * p + q, k * p + q) += Wk * Uk.t();
  }
  return A / double(n);
}

namespace {

class ManifoldCharting final : public MixtureAlignmentMethod {
 public:
  explicit ManifoldCharting(const MixtureSetting& s)
      : MixtureAlignmentMethod("manifold_charting", s) {}

 protected:
  arma::mat alignment_cost(const arma::mat&, const arma::mat& U, const arma::mat& R,
                           const std::vector<arma::mat>& Z) const override {
    return charting_cost(U, R, Z);
  }
};

// The parameters the contract and the budget both read.
struct ChartingKeys {
  IntKey analysers = keywords::analysers(40, "charts (local linear models) of the mixture");
  IntKey iterations = keywords::iterations(200, 100000, "of the mixture's EM");
};

MethodInfo manifold_charting_info() {
  MethodInfo m = describe_method(
      "manifold_charting", "manifold",
      "manifold charting: a mixture of local PCA charts aligned where they overlap; "
      "out-of-sample through the mixture",
      "Brand, NIPS 15 (2003), section 4");
  const auto [analysers, iterations] = ChartingKeys{};
  const RealKey tolerance = mixture_tolerance();
  m.params = {analysers, iterations, tolerance};
  describe_mixture(m);
  m.make = [=](const ParamSet& p) {
    return std::make_unique<ManifoldCharting>(mixture_setting(p, analysers, iterations, tolerance));
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(manifold_charting_info,
               mixture_alignment_budget(ChartingKeys{}.analysers, ChartingKeys{}.iterations, false))
}  // namespace drbench
