#include "methods/gplvm/priors/rank.hpp"

#include <string>

#include "framework/core/error.hpp"

namespace drbench {

RankPrior::RankPrior(double alpha, double beta) : alpha_(alpha), beta_(beta) {
  if (!(alpha > 0))
    throw MethodError("rank prior: 'alpha' must be > 0, got " + std::to_string(alpha));
  if (!(beta > 0))
    throw MethodError("rank prior: 'rank_beta' must be > 0, got " + std::to_string(beta));
}

double RankPrior::value_grad(const arma::mat& X, arma::mat* gX) const {
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  const double b2 = beta_ * beta_;
  arma::mat G = Xc * Xc.t() / b2;
  G.diag() += 1.0;
  arma::mat R;
  if (!arma::chol(R, G))
    throw Error("internal: rank prior: I + Xc Xc^T/beta^2 not positive definite");
  const double logdet = 2.0 * arma::accu(arma::log(R.diag()));
  if (gX) {
    // G^-1 Xc through the Cholesky factor; its rows already sum to zero, so the centring
    // projection of the chain rule leaves it unchanged.
    const arma::mat Z = arma::solve(arma::trimatu(R), arma::solve(arma::trimatl(R.t()), Xc));
    *gX = (2.0 * alpha_ / b2) * Z;
  }
  return alpha_ * logdet;
}

}  // namespace drbench
