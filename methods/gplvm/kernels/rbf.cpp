#include "methods/gplvm/kernels/rbf.hpp"

#include "framework/linalg/distances.hpp"

namespace drbench {

arma::mat RbfKernel::K(const arma::mat& X) const { return cached_K(X); }

const arma::mat& RbfKernel::cached_K(const arma::mat& X) const {
  const bool hit = cache_X_.n_rows == X.n_rows && cache_X_.n_cols == X.n_cols &&
                   cache_params_.n_elem == n_params() &&
                   arma::all(cache_params_ == params()) && arma::all(arma::vectorise(cache_X_ == X));
  if (!hit) {
    cache_K_ = value(0) * arma::exp((-0.5 * value(1)) * sq_distances(X));
    cache_X_ = X;
    cache_params_ = params();
  }
  return cache_K_;
}

arma::mat RbfKernel::K(const arma::mat& X, const arma::mat& X2) const {
  return value(0) * arma::exp((-0.5 * value(1)) * sq_distances(X, X2));
}

arma::vec RbfKernel::diag(const arma::mat& X) const {
  return arma::vec(X.n_cols, arma::fill::value(value(0)));
}

// With W = G .* K, r = rowsum(W) + colsum(W) and s_i = |x_i|^2:
//   dL/dlog variance = sum(W),
//   dL/dlog inv_width = -inv_width/2 * sum_ij W_ij |x_i - x_j|^2
//                     = -inv_width/2 * (s'r - 2 sum_i x_i'(X W^T)_i),
//   dL/dx_i = -inv_width * sum_j (W_ij + W_ji)(x_i - x_j) = inv_width * (X W + X W^T - X diag(r)),
// so the only N^2 work is one elementwise product, two reductions and two thin BLAS-3 products.
void RbfKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                          arma::mat& g_X) const {
  const arma::mat W = G % cached_K(X);
  const arma::rowvec r = arma::sum(W, 0) + arma::sum(W, 1).t();
  const arma::mat XW = X * W, XWt = X * W.t();
  const double pair_sum = arma::dot(arma::sum(arma::square(X), 0), r) - 2.0 * arma::accu(X % XWt);
  g_params = {arma::accu(W), -0.5 * value(1) * pair_sum};
  g_X = value(1) * (XW + XWt - X.each_row() % r);
}

arma::vec RbfKernel::grad_params(const arma::mat& X, const arma::mat& G) const {
  arma::vec gp;
  arma::mat gx;
  gradients(X, G, gp, gx);
  return gp;
}

arma::mat RbfKernel::grad_X(const arma::mat& X, const arma::mat& G) const {
  arma::vec gp;
  arma::mat gx;
  gradients(X, G, gp, gx);
  return gx;
}

arma::mat RbfKernel::grad_X_cross(const arma::mat& X, const arma::mat& X2,
                                  const arma::mat& G) const {
  const arma::mat W = G % K(X, X2);  // n x m
  arma::mat g_X = value(1) * (X2 * W.t());
  g_X -= value(1) * (X.each_row() % arma::sum(W, 1).t());
  return g_X;
}

arma::mat RbfKernel::grad_X_diag(const arma::mat& X, const arma::vec&) const {
  return arma::zeros(X.n_rows, X.n_cols);  // stationary: the variance does not move with x
}

}  // namespace drbench
