#include "methods/gplvm/kernels/static.hpp"

#include "methods/gplvm/symmetric.hpp"

namespace drbench {

arma::mat StaticKernel::K(const arma::mat& X) const {
  if (shared_ == Shared::every_pair)
    return arma::mat(X.n_cols, X.n_cols, arma::fill::value(value(0)));
  return value(0) * arma::eye(X.n_cols, X.n_cols);
}

arma::mat StaticKernel::K(const arma::mat& X, const arma::mat& X2) const {
  if (shared_ == Shared::every_pair)
    return arma::mat(X.n_cols, X2.n_cols, arma::fill::value(value(0)));
  return arma::zeros(X.n_cols, X2.n_cols);
}

arma::vec StaticKernel::diag(const arma::mat& X) const {
  return arma::vec(X.n_cols, arma::fill::value(value(0)));
}

void StaticKernel::gradients(const arma::mat& X, const arma::mat& G, arma::vec& g_params,
                             arma::mat& g_X) const {
  g_params = {value(0) * (shared_ == Shared::every_pair ? arma::accu(G) : arma::trace(G))};
  g_X.zeros(X.n_rows, X.n_cols);
}

void StaticKernel::cross_gradients(const arma::mat& X, const arma::mat& X2, const arma::mat& G,
                                   arma::vec& g_params, arma::mat& g_X, arma::mat* g_X2) const {
  g_params = {shared_ == Shared::every_pair ? value(0) * arma::accu(G) : 0.0};
  g_X.zeros(X.n_rows, X.n_cols);
  if (g_X2) g_X2->zeros(X2.n_rows, X2.n_cols);
}

void StaticKernel::diag_gradients(const arma::mat& X, const arma::vec& g, arma::vec& g_params,
                                  arma::mat& g_X) const {
  g_params = {value(0) * arma::accu(g)};
  g_X.zeros(X.n_rows, X.n_cols);
}

double StaticKernel::noise(arma::vec* grad) const {
  const double v = shared_ == Shared::same_point ? value(0) : 0.0;
  if (grad) *grad = {v};
  return v;
}

bool StaticKernel::static_share(double& every_pair, double& same_point) const {
  (shared_ == Shared::every_pair ? every_pair : same_point) += value(0);
  return true;
}

void StaticKernel::upper_K(const arma::mat&, const UpperFill& fill, arma::mat& K) const {
  UpperFill f = fill;
  static_share(f.every_pair, f.same_point);
  symmetric::fill_upper(K, f.overwrite, f.every_pair, f.same_point);
}

void StaticKernel::upper_gradients(const arma::mat& X, arma::mat& G, arma::vec& g_params,
                                   arma::mat& g_X, UpperSums* sums) const {
  UpperSums s;
  if (sums && sums->filled) {
    s = *sums;
  } else if (shared_ == Shared::every_pair) {
    symmetric::upper_sums(G, s.strict_upper, s.diagonal);
    s.filled = true;
    if (sums) *sums = s;
  } else {
    s.diagonal = arma::trace(G);  // all white needs; leaves `sums` to whoever reads G in full
  }
  const double sum_G =
      shared_ == Shared::every_pair ? 2.0 * s.strict_upper + s.diagonal : s.diagonal;
  g_params = {value(0) * sum_G};
  g_X.zeros(X.n_rows, X.n_cols);
}

}  // namespace drbench
