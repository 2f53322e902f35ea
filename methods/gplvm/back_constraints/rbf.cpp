#include "methods/gplvm/back_constraints/rbf.hpp"

#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

RbfBackConstraint::RbfBackConstraint(double gamma)
    : AffineBackConstraint("RBF back-constraint"), gamma_(gamma) {
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
  W_ = Bt.t();
}

arma::mat RbfBackConstraint::latent() const {
  return affine(K_);
}

arma::vec RbfBackConstraint::chain(const arma::mat& gX) const {
  return chain_affine(gX, gX * K_);
}

arma::mat RbfBackConstraint::map(const arma::mat& Ynew) const {
  if (Ynew.n_rows != Y_.n_rows)
    throw MethodError("RBF back-constraint: new points have " + std::to_string(Ynew.n_rows) +
                      " features, the training data had " + std::to_string(Y_.n_rows));
  return affine(kernel(Y_, Ynew));
}

}  // namespace drbench
