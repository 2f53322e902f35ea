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
  A_ = Ab.head_cols(Y.n_rows);
  b_ = Ab.col(Y.n_rows);
}

arma::vec LinearBackConstraint::params() const {
  return affine_params(A_, b_);
}

void LinearBackConstraint::set_params(const arma::vec& p) {
  set_affine_params(p, A_, b_, "linear back-constraint");
}

arma::mat LinearBackConstraint::latent() const {
  return map(Y_);
}

arma::vec LinearBackConstraint::chain(const arma::mat& gX) const {
  return arma::join_cols(arma::vectorise(gX * Y_.t()), arma::vec(arma::sum(gX, 1)));
}

arma::mat LinearBackConstraint::map(const arma::mat& Ynew) const {
  if (Ynew.n_rows != A_.n_cols)
    throw MethodError("linear back-constraint: new points have " + std::to_string(Ynew.n_rows) +
                      " features, the training data had " + std::to_string(A_.n_cols));
  arma::mat X = A_ * Ynew;
  X.each_col() += b_;
  return X;
}

}  // namespace drbench
