#include "methods/gplvm/priors/locally_linear.hpp"

#include <string>

#include "framework/core/error.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

arma::sp_mat lle_weights(const arma::mat& Y, arma::uword k, double reg) {
  const arma::uword n = Y.n_cols;
  if (k == 0 || k >= n)
    throw MethodError("locally linear prior: 'neighbors' must be in 1.." + std::to_string(n - 1) +
                      " for " + std::to_string(n) + " training points, got " + std::to_string(k));
  if (!(reg >= 0))
    throw MethodError("locally linear prior: 'lle_reg' must be >= 0, got " + std::to_string(reg));
  const arma::umat nbr = neighbour_graph(Y, k, {GraphKind::exact}).index;
  arma::umat loc(2, n * k);
  arma::vec val(n * k);
  for (arma::uword i = 0; i < n; ++i) {
    const arma::mat Z = Y.cols(nbr.col(i)).eval().each_col() - Y.col(i);
    arma::mat C = Z.t() * Z;
    const double tr = arma::trace(C);
    C.diag() += reg * (tr > 0 ? tr : 1.0);
    arma::vec w;
    if (!arma::solve(w, C, arma::ones<arma::vec>(k), arma::solve_opts::no_approx))
      throw MethodError("locally linear prior: singular local Gram matrix at point " +
                        std::to_string(i) + " (duplicate points?); raise 'lle_reg'");
    w /= arma::accu(w);
    for (arma::uword j = 0; j < k; ++j) {
      loc(0, i * k + j) = i;
      loc(1, i * k + j) = nbr(j, i);
      val(i * k + j) = w(j);
    }
  }
  return arma::sp_mat(loc, val, n, n);
}

LocallyLinearPrior::LocallyLinearPrior(arma::sp_mat W, double sigma) : W_(std::move(W)) {
  if (!(sigma > 0))
    throw MethodError("locally linear prior: 'sigma' must be > 0, got " + std::to_string(sigma));
  precision_ = 1.0 / (sigma * sigma);
}

double LocallyLinearPrior::value_grad(const arma::mat& X, arma::mat* gX) const {
  if (X.n_cols != W_.n_rows)
    throw Error("internal: locally linear prior built for " + std::to_string(W_.n_rows) +
                " points, got " + std::to_string(X.n_cols));
  const arma::mat E = X - X * W_.t();
  if (gX) *gX = precision_ * (E - E * W_);
  return 0.5 * precision_ * arma::accu(arma::square(E));
}

}  // namespace drbench
