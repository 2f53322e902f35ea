#include "methods/gplvm/back_constraints/rbf.hpp"

#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

RbfBackConstraint::RbfBackConstraint(double gamma) : gamma_(gamma) {
  if (!(gamma > 0))
    throw MethodError("RBF back-constraint: the inverse width 1/kernel_width^2 must be > 0, got " +
                      std::to_string(gamma));
}

arma::mat RbfBackConstraint::kernel(const arma::mat& A, const arma::mat& B) const {
  return arma::exp(-0.5 * gamma_ * sq_distances(A, B));
}

void RbfBackConstraint::setup(const arma::mat& Y, const arma::mat& X0) {
  if (X0.n_cols != Y.n_cols)
    throw Error("internal: RBF back-constraint: X0 and Y have different numbers of points");
  Y_ = Y;
  K_ = kernel(Y, Y);
  // The Gram product behind the distances is symmetric only up to rounding; the Cholesky-based
  // solve below (and chain()'s use of K as its own transpose) want it exactly symmetric.
  K_ = arma::symmatu(K_);
  K_.diag().ones();
  // Least squares fit of X0: bias = mean, weights from (K + eps I) B^T = (X0 - b)^T. The small
  // ridge only keeps the solve stable when K is numerically singular (tiny gamma).
  b_ = arma::mean(X0, 1);
  arma::mat Kr = K_;
  Kr.diag() += 1e-8 * static_cast<double>(Y.n_cols);
  arma::mat Bt;
  if (!arma::solve(Bt, Kr, (X0.each_col() - b_).t(), arma::solve_opts::likely_sympd))
    throw MethodError(
        "RBF back-constraint: kernel matrix of the training data is singular "
        "(duplicate points?); change 'kernel_width'");
  B_ = Bt.t();
}

arma::vec RbfBackConstraint::params() const {
  return affine_params(B_, b_);
}

void RbfBackConstraint::set_params(const arma::vec& p) {
  set_affine_params(p, B_, b_, "RBF back-constraint");
}

arma::mat RbfBackConstraint::latent() const {
  arma::mat X = B_ * K_;
  X.each_col() += b_;
  return X;
}

arma::vec RbfBackConstraint::chain(const arma::mat& gX) const {
  return arma::join_cols(arma::vectorise(gX * K_), arma::vec(arma::sum(gX, 1)));
}

arma::mat RbfBackConstraint::map(const arma::mat& Ynew) const {
  if (Ynew.n_rows != Y_.n_rows)
    throw MethodError("RBF back-constraint: new points have " + std::to_string(Ynew.n_rows) +
                      " features, the training data had " + std::to_string(Y_.n_rows));
  arma::mat X = B_ * kernel(Y_, Ynew);
  X.each_col() += b_;
  return X;
}

}  // namespace drbench
