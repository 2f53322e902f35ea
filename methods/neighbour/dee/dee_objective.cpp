#include "methods/neighbour/dee/dee_objective.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/affinity/weights.hpp"
#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

DeeWeights dee_weights(const arma::mat& X, const arma::uvec& labels,
                       const keywords::KernelWidth& width) {
  const ClassPairDistances c = class_pair_distances(X, labels, width, "dee");
  DeeWeights w;
  w.kernel_width = std::sqrt(c.t / 2.0);  // t = 2 sigma^2 of the heat kernel
  w.Wp = gaussian_weights(c.D2, w.kernel_width) % c.same;
  w.Wm = c.D2 % c.different;
  return w;
}

DeeObjective::DeeObjective(const arma::mat& X, arma::mat Wp, arma::mat Wm, double lambda,
                           arma::uword dim)
    : X_(X), Wp_(std::move(Wp)), Wm_(std::move(Wm)), lambda_(lambda), dim_(dim) {}

double DeeObjective::evaluate(const arma::vec& a, arma::vec* grad) {
  const arma::mat A(const_cast<double*>(a.memptr()), dim_, X_.n_rows, false, true);
  const arma::mat Y = A * X_;
  const arma::uword n = Y.n_cols;
  // One pass over the pairs i > j: the N^2 exponentials dominate, so each is computed once and
  // K = w+ - lambda w- exp(-d^2) is filled in the same sweep.
  arma::mat K(n, n);
  double f = 0.0;
  for (arma::uword j = 0; j < n; ++j) {
    K(j, j) = 0.0;
    const double* wp = Wp_.colptr(j);
    const double* wm = Wm_.colptr(j);
    double* k = K.colptr(j);
    for (arma::uword i = j + 1; i < n; ++i) {
      const double d2 = column_sq_distance(Y, i, j);
      const double r = wm[i] != 0.0 ? lambda_ * wm[i] * std::exp(-d2) : 0.0;
      f += wp[i] * d2 + r;
      k[i] = wp[i] - r;
    }
  }
  if (grad) {
    mirror_lower(K);
    *grad = arma::vectorise(laplacian_gradient(Y, K, X_));
  }
  return 2.0 * f;  // ordered pairs: each unordered pair twice
}

double DeeMetric::factor(const arma::mat& S, double mu_rel) {
  const double D = double(S.n_rows);
  const double mu = mu_rel * arma::trace(S) / D;
  arma::mat M = 4.0 * (0.5 * (S + S.t()));
  M.diag() += 4.0 * mu;
  if (!(mu > 0) || !arma::chol(R_, M))
    throw MethodError("dee: the search direction's matrix is not positive definite (mu = " +
                      std::to_string(mu) + "); raise 'mu'");
  Rt_ = R_.t();  // kept, so that no solve transposes a D x D matrix
  return mu;
}

double DeeObjective::factor_laplacian(double mu_rel) {
  const arma::rowvec deg = arma::sum(Wp_, 0);
  arma::mat XD = X_.each_row() % deg;
  return metric_.factor(XD * X_.t() - (X_ * Wp_) * X_.t(), mu_rel);
}

double DeeObjective::factor_fixed_point(double mu_rel) {
  const arma::rowvec deg = arma::sum(Wp_, 0);
  arma::mat XD = X_.each_row() % deg;
  return metric_.factor(XD * X_.t(), mu_rel);
}

arma::vec DeeMetric::direction(const arma::vec& grad, arma::uword dim) const {
  const arma::mat G(const_cast<double*>(grad.memptr()), dim, R_.n_rows, false, true);
  // Delta^T = -M^-1 G^T with M = R^T R.
  const arma::mat Z = arma::solve(arma::trimatl(Rt_), G.t(), arma::solve_opts::fast);
  const arma::mat Dt = arma::solve(arma::trimatu(R_), Z, arma::solve_opts::fast);
  return -arma::vectorise(Dt.t());
}

}  // namespace drbench
