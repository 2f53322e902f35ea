#include "methods/gplvm/priors/rank.hpp"

#include <limits>
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
  // The SVD of Xc itself, not a factorisation of I + Xc Xc^T / beta^2: once the optimiser tries a
  // far-out step (s_i^2 / beta^2 past 1e16) that matrix loses its identity and stops being
  // numerically positive definite, and the Gram matrix's eigenvalues would turn the zero singular
  // values of a q > n - 1 latent matrix into rounding noise of size eps * s_max^2.
  arma::mat U, V;
  arma::vec s;
  if (!Xc.is_finite() || !arma::svd_econ(U, s, V, Xc, "both", "std")) {
    // As the GP likelihood does for a covariance it cannot factor: the optimiser rejects the step.
    if (gX) gX->zeros(X.n_rows, X.n_cols);
    return std::numeric_limits<double>::infinity();
  }
  if (gX) {
    // Rows of U diag(.) V^T sum to zero (V's columns lie in the centred row space), so the
    // centring projection of the chain rule leaves the gradient unchanged.
    *gX = U * arma::diagmat(2.0 * alpha_ * s / (b2 + arma::square(s))) * V.t();
  }
  return alpha_ * arma::accu(arma::log1p(arma::square(s) / b2));
}

}  // namespace drbench
