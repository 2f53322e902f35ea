#include "methods/gplvm/back_constraints/linear.hpp"

#include <string>

#include "framework/core/error.hpp"

namespace drbench {

void LinearBackConstraint::setup(const arma::mat& Y, const arma::mat& X0) {
  if (X0.n_cols != Y.n_cols)
    throw Error("internal: linear back-constraint: X0 and Y have different numbers of points");
  Y_ = Y;
  // Minimum-norm least squares [A b] = X0 pinv([Y; 1]) (works for n < d too).
  const arma::mat Ya = arma::join_cols(Y, arma::ones<arma::rowvec>(Y.n_cols));
  const arma::mat Ab = X0 * arma::pinv(Ya);
  W_ = Ab.head_cols(Y.n_rows);
  b_ = Ab.col(Y.n_rows);
}

arma::mat LinearBackConstraint::latent() const {
  return map(Y_);
}

arma::vec LinearBackConstraint::chain(const arma::mat& gX) const {
  return chain_affine(gX, gX * Y_.t());
}

arma::mat LinearBackConstraint::map(const arma::mat& Ynew) const {
  if (Ynew.n_rows != W_.n_cols)
    throw MethodError("linear back-constraint: new points have " + std::to_string(Ynew.n_rows) +
                      " features, the training data had " + std::to_string(W_.n_cols));
  return affine(Ynew);
}

}  // namespace drbench
