#include "methods/gplvm/kernels/stationary.hpp"

#include <cmath>

#include "framework/linalg/distances.hpp"

namespace drbench {

const arma::mat& StationaryKernel::cached_K(const arma::mat& X) const {
  const bool hit = cache_X_.n_rows == X.n_rows && cache_X_.n_cols == X.n_cols &&
                   cache_params_.n_elem == n_params() && arma::all(cache_params_ == params()) &&
                   arma::all(arma::vectorise(cache_X_ == X));
  if (!hit) {
    cache_S_ = value(1) * sq_distances(X);
    cache_F_ = cache_S_;
    profile(cache_F_);
    cache_K_ = value(0) * cache_F_;
    cache_X_ = X;
    cache_params_ = params();
  }
  return cache_K_;
}

arma::mat StationaryKernel::K(const arma::mat& X, const arma::mat& X2) const {
  arma::mat F = value(1) * sq_distances(X, X2);
  profile(F);
  return value(0) * F;
}

arma::vec StationaryKernel::diag(const arma::mat& X) const {
  return arma::vec(X.n_cols, arma::fill::value(value(0) * profile_at_zero()));
}

arma::mat StationaryKernel::weighted_derivative(const arma::mat& X, const arma::mat& G) const {
  cached_K(X);
  arma::mat W = profile_derivative(cache_S_, cache_F_);
  W %= G;
  W *= value(0);
  return W;
}

// With W = G .* dk/ds (s = a r^2, a = inv_width), r = rowsum(W) + colsum(W), q_i = |x_i|^2:
//   dL/dlog variance = sum(G .* K),
//   dL/dlog a = sum_ij W_ij s_ij = a (q'r - 2 sum_i x_i'(X W^T)_i),
//   dL/dx_i = 2a sum_j (W_ij + W_ji)(x_i - x_j) = 2a (X diag(r) - X W - X W^T),
// so the only N^2 work is the profile, two elementwise products, two reductions and two thin
// BLAS-3 products.
void StationaryKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                                 arma::mat& g_X) const {
  const arma::mat W = weighted_derivative(X, G);
  const arma::rowvec r = arma::sum(W, 0) + arma::sum(W, 1).t();
  const arma::mat XW = X * W, XWt = X * W.t();
  const double pair_sum = arma::dot(arma::sum(arma::square(X), 0), r) - 2.0 * arma::accu(X % XWt);
  g_params = {arma::accu(G % cache_K_), value(1) * pair_sum};
  g_X = (2.0 * value(1)) * (X.each_row() % r - XW - XWt);
}

arma::vec StationaryKernel::grad_params(const arma::mat& X, const arma::mat& G) const {
  arma::vec gp;
  arma::mat gx;
  gradients(X, G, gp, gx);
  return gp;
}

arma::mat StationaryKernel::grad_X(const arma::mat& X, const arma::mat& G) const {
  arma::vec gp;
  arma::mat gx;
  gradients(X, G, gp, gx);
  return gx;
}

arma::mat StationaryKernel::grad_X_cross(const arma::mat& X, const arma::mat& X2,
                                         const arma::mat& G) const {
  const arma::mat S = value(1) * sq_distances(X, X2);  // n x m
  arma::mat F = S;
  profile(F);
  arma::mat W = profile_derivative(S, F);
  W %= G;
  W *= value(0);
  // dL/dx_i = 2a sum_j W_ij (x_i - x2_j).
  return (2.0 * value(1)) * (X.each_row() % arma::sum(W, 1).t() - X2 * W.t());
}

arma::mat StationaryKernel::grad_X_diag(const arma::mat& X, const arma::vec&) const {
  return arma::zeros(X.n_rows, X.n_cols);  // k(x, x) = variance f(0) does not move with x
}

void Matern32Kernel::profile(arma::mat& S) const {
  S.transform([](double s) {
    const double u = std::sqrt(3.0 * s);
    return (1.0 + u) * std::exp(-u);
  });
}

arma::mat Matern32Kernel::profile_derivative(const arma::mat& S, const arma::mat&) const {
  // df/du = -u exp(-u), du/ds = 3 / (2u): df/ds = -3/2 exp(-u), finite at s = 0.
  arma::mat D = S;
  D.transform([](double s) { return -1.5 * std::exp(-std::sqrt(3.0 * s)); });
  return D;
}

void Matern52Kernel::profile(arma::mat& S) const {
  S.transform([](double s) {
    const double u = std::sqrt(5.0 * s);
    return (1.0 + u + u * u / 3.0) * std::exp(-u);
  });
}

arma::mat Matern52Kernel::profile_derivative(const arma::mat& S, const arma::mat&) const {
  // df/du = -u (1 + u) exp(-u) / 3, du/ds = 5 / (2u): df/ds = -5/6 (1 + u) exp(-u).
  arma::mat D = S;
  D.transform([](double s) {
    const double u = std::sqrt(5.0 * s);
    return -(5.0 / 6.0) * (1.0 + u) * std::exp(-u);
  });
  return D;
}

}  // namespace drbench
