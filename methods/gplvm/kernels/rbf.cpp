#include "methods/gplvm/kernels/rbf.hpp"

#include "framework/linalg/distances.hpp"

namespace drbench {

arma::mat RbfKernel::K(const arma::mat& X) const {
  return value(0) * arma::exp((-0.5 * value(1)) * sq_distances(X));
}

arma::mat RbfKernel::K(const arma::mat& X, const arma::mat& X2) const {
  return value(0) * arma::exp((-0.5 * value(1)) * sq_distances(X, X2));
}

arma::vec RbfKernel::diag(const arma::mat& X) const {
  return arma::vec(X.n_cols, arma::fill::value(value(0)));
}

// With W = G .* K and R2 the squared distances:
//   dL/dlog variance = sum(W),  dL/dlog inv_width = -inv_width/2 * sum(W .* R2),
//   dL/dx_i = -inv_width * sum_j (W_ij + W_ji)(x_i - x_j)
//           = -inv_width * (X diag(rowsum(S)) - X S)  with S = W + W^T,
// two BLAS-3 products instead of a loop over pairs.
void RbfKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                          arma::mat& g_X) const {
  const arma::mat R2 = sq_distances(X);
  const arma::mat W = G % (value(0) * arma::exp((-0.5 * value(1)) * R2));
  g_params = {arma::accu(W), -0.5 * value(1) * arma::accu(W % R2)};
  const arma::rowvec s = arma::sum(W, 0) + arma::sum(W, 1).t();
  g_X = value(1) * (X * W + X * W.t());
  g_X -= value(1) * (X.each_row() % s);
}

arma::vec RbfKernel::grad_params(const arma::mat& X, const arma::mat& G) const {
  const arma::mat R2 = sq_distances(X);
  const arma::mat W = G % (value(0) * arma::exp((-0.5 * value(1)) * R2));
  return {arma::accu(W), -0.5 * value(1) * arma::accu(W % R2)};
}

arma::mat RbfKernel::grad_X(const arma::mat& X, const arma::mat& G) const {
  const arma::mat W = G % K(X);
  const arma::rowvec s = arma::sum(W, 0) + arma::sum(W, 1).t();
  arma::mat g_X = value(1) * (X * W + X * W.t());
  g_X -= value(1) * (X.each_row() % s);
  return g_X;
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
