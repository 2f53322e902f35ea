#include "methods/gplvm/kernels/static.hpp"

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

void StaticKernel::add_K(const arma::mat&, arma::mat& K) const {
  if (shared_ == Shared::every_pair)
    K += value(0);
  else
    K.diag() += value(0);
}

arma::vec StaticKernel::diag(const arma::mat& X) const {
  return arma::vec(X.n_cols, arma::fill::value(value(0)));
}

arma::vec StaticKernel::grad_params(const arma::mat&, const arma::mat& G) const {
  return {value(0) * (shared_ == Shared::every_pair ? arma::accu(G) : arma::trace(G))};
}

arma::mat StaticKernel::grad_X(const arma::mat& X, const arma::mat&) const {
  return arma::zeros(X.n_rows, X.n_cols);
}

arma::mat StaticKernel::grad_X_cross(const arma::mat& X, const arma::mat&, const arma::mat&) const {
  return arma::zeros(X.n_rows, X.n_cols);
}

arma::mat StaticKernel::grad_X_diag(const arma::mat& X, const arma::vec&) const {
  return arma::zeros(X.n_rows, X.n_cols);
}

}  // namespace drbench
