#include "methods/gplvm/back_constraints/mlp.hpp"

#include <string>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"

namespace drbench {

MlpBackConstraint::MlpBackConstraint(arma::uword hidden, std::uint64_t seed)
    : h_(hidden), seed_(seed) {
  if (hidden == 0) throw MethodError("MLP back-constraint: 'hidden' must be at least 1");
}

arma::mat MlpBackConstraint::hidden_units(const arma::mat& Y) const {
  arma::mat A = W1_ * Y;
  A.each_col() += b1_;
  return arma::tanh(A);
}

void MlpBackConstraint::setup(const arma::mat& Y, const arma::mat& X0) {
  if (X0.n_cols != Y.n_cols)
    throw Error("internal: MLP back-constraint: X0 and Y have different numbers of points");
  Y_ = Y;
  Rng rng(seed_);
  W1_ = rng.randn(h_, Y.n_rows);
  // Scale each hidden unit so its pre-activation has unit spread over the training data: tanh
  // then works in its curved range whatever the scale of Y.
  arma::mat A = W1_ * Y;
  for (arma::uword r = 0; r < h_; ++r) {
    const double s = arma::stddev(A.row(r));
    if (s > 0) W1_.row(r) /= s;
  }
  b1_ = 0.5 * rng.randn(h_, 1);
  const arma::mat H = hidden_units(Y);
  const arma::mat Ha = arma::join_cols(H, arma::ones<arma::rowvec>(Y.n_cols));
  const arma::mat Wb = X0 * arma::pinv(Ha);
  W2_ = Wb.head_cols(h_);
  b2_ = Wb.col(h_);
}

arma::vec MlpBackConstraint::params() const {
  return arma::join_cols(arma::join_cols(arma::vectorise(W1_), b1_),
                         arma::join_cols(arma::vectorise(W2_), b2_));
}

void MlpBackConstraint::set_params(const arma::vec& p) {
  const arma::uword d = W1_.n_cols, q = W2_.n_rows;
  const arma::uword n1 = h_ * d, n2 = q * h_;
  if (p.n_elem != n1 + h_ + n2 + q)
    throw Error("internal: MLP back-constraint expects " + std::to_string(n1 + h_ + n2 + q) +
                " parameters, got " + std::to_string(p.n_elem));
  W1_ = arma::reshape(p.subvec(0, n1 - 1), h_, d);
  b1_ = p.subvec(n1, n1 + h_ - 1);
  W2_ = arma::reshape(p.subvec(n1 + h_, n1 + h_ + n2 - 1), q, h_);
  b2_ = p.tail(q);
}

arma::mat MlpBackConstraint::latent() const {
  return map(Y_);
}

arma::vec MlpBackConstraint::chain(const arma::mat& gX) const {
  const arma::mat H = hidden_units(Y_);
  const arma::mat gA = (W2_.t() * gX) % (1.0 - arma::square(H));
  return arma::join_cols(arma::join_cols(arma::vectorise(gA * Y_.t()), arma::vec(arma::sum(gA, 1))),
                         arma::join_cols(arma::vectorise(gX * H.t()), arma::vec(arma::sum(gX, 1))));
}

arma::mat MlpBackConstraint::map(const arma::mat& Ynew) const {
  if (Ynew.n_rows != W1_.n_cols)
    throw MethodError("MLP back-constraint: new points have " + std::to_string(Ynew.n_rows) +
                      " features, the training data had " + std::to_string(W1_.n_cols));
  arma::mat X = W2_ * hidden_units(Ynew);
  X.each_col() += b2_;
  return X;
}

}  // namespace drbench
