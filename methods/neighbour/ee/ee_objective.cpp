#include "methods/neighbour/ee/ee_objective.hpp"

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
  const arma::mat D2 = sq_distances(Y);
  const arma::mat Wt = Wm_ % arma::exp(-D2);  // w~ = w- exp(-d2)
  const double E = arma::accu(Wp_ % D2) + lambda_ * arma::accu(Wt);
  if (grad) {
    // 4 Y L with L = L+ - lambda L~ = diag(row sums of W) - W, W = W+ - lambda W~.
    const arma::mat W = Wp_ - lambda_ * Wt;
    const arma::mat G = 4.0 * (Y.each_row() % arma::sum(W, 0) - Y * W);
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
  const arma::mat Z = arma::solve(arma::trimatl(Rt_), arma::mat(-G.t()));
  arma::mat Pt = arma::solve(arma::trimatu(R_), Z);  // n x dim
  Pt.each_row() -= arma::mean(Pt, 0);
  return arma::vectorise(Pt.t());
}

arma::vec EeObjective::fixed_point_direction(const arma::vec& g) const {
  const arma::uword n = Wp_.n_rows;
  const arma::mat G(const_cast<double*>(g.memptr()), dim_, n, false, true);
  arma::mat P = -G;
  P.each_row() /= 4.0 * Dp_.t();
  return arma::vectorise(P);
}

}  // namespace drbench
