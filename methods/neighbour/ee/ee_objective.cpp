#include "methods/neighbour/ee/ee_objective.hpp"

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

EeObjective::EeObjective(arma::mat Wp, arma::mat Wm, double lambda, arma::uword dim)
    : Wp_(std::move(Wp)), Wm_(std::move(Wm)), lambda_(lambda), dim_(dim) {
  if (!Wp_.is_square() || arma::size(Wp_) != arma::size(Wm_))
    throw Error("internal: elastic embedding weights must be square and of one size");
  Dp_ = arma::sum(Wp_, 1);
}

double EeObjective::evaluate(const arma::vec& y, arma::vec* grad) {
  const arma::uword n = Wp_.n_rows;
  const arma::mat Y(const_cast<double*>(y.memptr()), dim_, n, false, true);
  // The n x n work matrices are members: each evaluation reuses their pages.
  sq_distances_into(Y, D2_);
  Wt_.set_size(n, n);  // w~ = w- exp(-d2)
  const double* d2 = D2_.memptr();
  const double* wm = Wm_.memptr();
  double* wt = Wt_.memptr();
  // exp(-d2) is exactly +0 from d2 = 746 on; libm reaches that zero through its slow underflow
  // path, which dominated the evaluation on spread-out embeddings.
  for (arma::uword i = 0; i < n * n; ++i) wt[i] = d2[i] >= 746.0 ? 0.0 : wm[i] * std::exp(-d2[i]);
  const double E = arma::accu(Wp_ % D2_) + lambda_ * arma::accu(Wt_);
  if (grad) {
    // 4 Y L with L = L+ - lambda L~ = diag(row sums of W) - W, W = W+ - lambda W~.
    W_ = Wp_ - lambda_ * Wt_;
    const arma::mat G = 4.0 * (Y.each_row() % arma::sum(W_, 0) - Y * W_);
    *grad = arma::vectorise(G);
  }
  return E;
}

double EeObjective::factor_spectral(double ridge) {
  const arma::uword n = Wp_.n_rows;
  arma::mat M = -4.0 * Wp_;
  M.diag() += 4.0 * Dp_;
  const double mu = ridge * arma::trace(M) / static_cast<double>(n);
  if (!(mu > 0))
    throw MethodError(
        "ee: the attractive weights w+ are all zero (fix: raise 'perplexity' or "
        "'kernel_width')");
  M.diag() += mu;
  if (!arma::chol(R_, M))
    throw MethodError("ee: Cholesky factorisation of 4 L+ + mu I failed (fix: raise 'mu')");
  Rt_ = R_.t();
  return mu;
}

arma::vec EeObjective::spectral_direction(const arma::vec& g) const {
  const arma::uword n = Wp_.n_rows;
  const arma::mat G(const_cast<double*>(g.memptr()), dim_, n, false, true);
  // P M = -G with M = R^T R: solve R^T Z = -G^T, then R P^T = Z.
  // solve_opts::fast: the same triangular solves without an O(n^2) condition estimate each call.
  const arma::mat Z = arma::solve(arma::trimatl(Rt_), arma::mat(-G.t()), arma::solve_opts::fast);
  arma::mat Pt = arma::solve(arma::trimatu(R_), Z, arma::solve_opts::fast);  // n x dim
  Pt.each_row() -= arma::mean(Pt, 0);
  return arma::vectorise(Pt.t());
}

arma::vec ee_fixed_point_direction(const arma::vec& g, const arma::vec& Dp, arma::uword dim) {
  const arma::uword n = Dp.n_elem;
  const arma::mat G(const_cast<double*>(g.memptr()), dim, n, false, true);
  arma::mat P = -G;
  P.each_row() /= 4.0 * Dp.t();
  return arma::vectorise(P);
}

arma::vec EeObjective::fixed_point_direction(const arma::vec& g) const {
  return ee_fixed_point_direction(g, Dp_, dim_);
}

}  // namespace drbench
