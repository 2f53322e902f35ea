#include "methods/neighbour/dee/dee_objective.hpp"

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/graph_weights.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

DeeWeights dee_weights(const arma::mat& X, const arma::uvec& labels, double t) {
  const arma::uword n = X.n_cols;
  if (labels.n_elem != n)
    throw MethodError("dee: " + std::to_string(labels.n_elem) + " labels for " +
                      std::to_string(n) + " training points");
  const arma::mat D2 = sq_distances(X);
  const arma::umat same = arma::repmat(labels, 1, n) == arma::repmat(labels.t(), n, 1);
  const arma::umat intra = same % (1 - arma::eye<arma::umat>(n, n));
  if (arma::accu(intra) == 0 || arma::accu(same) == n * n)
    throw MethodError(
        "dee needs at least two classes and a class with two or more training points");
  DeeWeights w;
  w.t = t > 0 ? t : arma::accu(D2 % intra) / double(arma::accu(intra));
  if (!(w.t > 0) || !std::isfinite(w.t))
    throw MethodError("dee: same-class points coincide; set 'kernel_width' > 0");
  w.Wp.zeros(n, n);
  for (arma::uword j = 0; j < n; ++j)
    for (arma::uword i = 0; i < n; ++i)
      if (intra(i, j)) w.Wp(i, j) = heat_kernel(D2(i, j), w.t);
  w.Wm = D2 % (1 - same);
  return w;
}

DeeObjective::DeeObjective(const arma::mat& X, arma::mat Wp, arma::mat Wm, double lambda,
                           arma::uword dim)
    : X_(X), Wp_(std::move(Wp)), Wm_(std::move(Wm)), lambda_(lambda), dim_(dim) {}

double DeeObjective::evaluate(const arma::vec& a, arma::vec* grad) {
  const arma::mat A(const_cast<double*>(a.memptr()), dim_, X_.n_rows, false, true);
  const arma::mat Y = A * X_;
  const arma::mat D2 = embedded_sq_distances(Y);
  const arma::mat R = lambda_ * (Wm_ % arma::exp(-D2));  // lambda w- exp(-d^2)
  const double f = arma::accu(Wp_ % D2) + arma::accu(R);
  if (grad) *grad = arma::vectorise(laplacian_gradient(Y, Wp_ - R, X_));
  return f;
}

double DeeObjective::factor(const arma::mat& S, double mu_rel) {
  const double D = double(S.n_rows);
  const double mu = mu_rel * arma::trace(S) / D;
  arma::mat M = 4.0 * (0.5 * (S + S.t()));
  M.diag() += 4.0 * mu;
  if (!(mu > 0) || !arma::chol(R_, M))
    throw MethodError("dee: the search direction's matrix is not positive definite (mu = " +
                      std::to_string(mu) + "); raise 'mu'");
  return mu;
}

double DeeObjective::factor_laplacian(double mu_rel) {
  const arma::rowvec deg = arma::sum(Wp_, 0);
  arma::mat XD = X_.each_row() % deg;
  return factor(XD * X_.t() - (X_ * Wp_) * X_.t(), mu_rel);
}

double DeeObjective::factor_fixed_point(double mu_rel) {
  const arma::rowvec deg = arma::sum(Wp_, 0);
  arma::mat XD = X_.each_row() % deg;
  return factor(XD * X_.t(), mu_rel);
}

arma::vec DeeObjective::preconditioned_direction(const arma::vec& grad) const {
  const arma::mat G(const_cast<double*>(grad.memptr()), dim_, X_.n_rows, false, true);
  // Delta^T = -M^-1 G^T with M = R^T R.
  const arma::mat Z = arma::solve(arma::trimatl(R_.t()), G.t(), arma::solve_opts::fast);
  const arma::mat Dt = arma::solve(arma::trimatu(R_), Z, arma::solve_opts::fast);
  return -arma::vectorise(Dt.t());
}

}  // namespace drbench
