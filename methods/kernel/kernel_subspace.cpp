#include "methods/kernel/kernel_subspace.hpp"

#include <string>
#include <utility>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/neighbours/graph_weights.hpp"

namespace drbench {

void KernelSubspace::fit_basis(const arma::mat& X, arma::uword max_rank) {
  X_ = X;
  // Upper triangle only: extreme_eigs_sym reads no other.
  arma::mat K = centred_training_gram_upper(setting_, X, kernel_, centring_);
  const arma::uword n = X.n_cols;
  arma::vec ev;
  arma::mat V;
  // KPCA wants a few leading pairs; largest_eigs_sym stops as soon as they have converged.
  if (max_rank > 0)
    largest_eigs_sym(ev, V, K, std::min(max_rank, n));
  else
    extreme_eigs_sym(ev, V, K, n, true);
  // Directions with (numerically) zero variance carry no information and would divide by ~0.
  const double tol = std::max(ev.n_elem ? ev(0) : 0.0, 0.0) * 1e-10 * n;
  arma::uword r = 0;
  while (r < ev.n_elem && ev(r) > tol) ++r;
  if (r == 0)
    throw MethodError(
        "the centred kernel matrix is zero (all training points coincide in feature "
        "space); change kernel_width/kernel");
  lambda_ = ev.head(r);
  U_ = V.head_cols(r);
  Z_ = (U_.each_row() % arma::sqrt(lambda_).t()).t();
}

void KernelSubspace::set_directions(const arma::mat& W) {
  // y(x) = W' L^-1/2 U' kc(x)
  arma::mat Ws = W;
  // Directions have no sign; fix it by the embedding so results files are reproducible.
  const arma::mat Y0 = W.t() * Z_;
  for (arma::uword j = 0; j < Ws.n_cols; ++j)
    if (Y0(j, arma::index_max(arma::abs(Y0.row(j)))) < 0) Ws.col(j) *= -1.0;
  A_ = (U_.each_row() / arma::sqrt(lambda_).t()) * Ws;
  Y_ = Ws.t() * Z_;
}

arma::mat KernelSubspace::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  return A_.t() * centre_test_gram(gram(kernel_, X_, Xnew), centring_);
}

const LppKeys& lpp_keys() {
  static const LppKeys keys{
      keywords::weights("on the graph's edges"),
      keywords::heat_width(1.0),
      keywords::ridge(1e-4, 0.0, std::nullopt, true,
                      "on the Laplacian side, Z L Z' + ridge * mean eig(Z D Z') I: penalises "
                      "feature-space norm, keeps the problem definite")
          .with(keywords::formerly("reg")),
  };
  return keys;
}

void KernelSubspace::fit_lpp(const arma::mat& X, const arma::sp_mat& G, const LppSetting& graph,
                             arma::uword dim) {
  const arma::sp_mat W = heat_weights(G, graph.heat_width, graph.binary);
  fit_basis(X);
  set_directions(lpp_directions(Z(), W, dim, graph.reg));
}

arma::mat lpp_directions(const arma::mat& Z, const arma::sp_mat& Wg, arma::uword dim, double reg) {
  const arma::vec deg = arma::vec(arma::sum(Wg, 1));
  const arma::mat ZDh = Z.each_row() % arma::sqrt(deg).t();
  const arma::mat B = ZDh * ZDh.t();  // Z D Z' (a syrk)
  const arma::mat ZW = Z * Wg;        // Z W  (W symmetric)
  arma::mat A = B - ZW * Z.t();       // Z L Z'
  A = 0.5 * (A + A.t());
  // The ridge goes on the Laplacian side: min (w'Aw + r|w|^2) / w'Bw. On the degree side it would
  // reward directions of vanishing variance (tiny kernel eigenvalues) with a near-zero quotient.
  // Solved as the equivalent maximisation  B w = nu (A + r I) w, nu = 1/mu, largest first.
  A.diag() += reg * arma::trace(B) / B.n_rows;
  // Only dim of up to n - 1 directions are wanted: Lanczos on the Cholesky-reduced pencil skips
  // the O(r^3) reduction to standard form and the tridiagonalisation; the dense solver remains for
  // small problems, and for the error message when A + r I is not positive definite.
  arma::mat R, W;
  arma::vec nu;
  if (arma::chol(R, A) && extreme_eigs_chol_reduced(nu, W, B, R, dim, true))
    W = arma::solve(arma::trimatu(R), W);
  else
    W = gen_sym_eigs(B, A, dim, Spectrum::Largest, 0.0, "reg",
                     "regularised graph Laplacian Z L Z' + reg I")
            .vectors;
  W.each_row() /= arma::sqrt(arma::sum(arma::square(W), 0));
  return W;
}

arma::sp_mat heat_weights(const arma::sp_mat& G, double heat_width, bool binary) {
  arma::sp_mat W = G;
  if (W.n_nonzero == 0) return W;
  if (binary) {
    for (auto it = W.begin(); it != W.end(); ++it) *it = 1.0;
    return W;
  }
  // Relative, as every heat width of the vocabulary can be: heat_width 1 is t = the mean squared
  // edge length.
  const double mean_sq = mean_sq_edge_length(G);
  return heat_edge_weights(
      G, keywords::KernelWidth{heat_width, true}.heat_t(mean_sq > 0 ? mean_sq : 1.0));
}

void describe_kernel_lpp(MethodInfo& m, const IntKey& neighbours) {
  m.params = kernel_keys().specs();
  m.params.push_back(neighbours);
  for (auto& p : lpp_keys().specs()) m.params.push_back(p);
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 0 ? s.n - 1 : 0; };
  m.transform_reproduces_embedding = true;
}

Budget kernel_lpp_budget() {
  // The full eigendecomposition of the Gram matrix (K, eigenvectors, LAPACK's workspace) and the
  // kept n x r basis with its r x r pencil: five n x n at the peak, two kept for the test side.
  return dense_budget(dense_eigen_cost(0.0, 5.0), 5.0, 2.0);
}

}  // namespace drbench
