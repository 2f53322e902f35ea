#include "methods/gplvm/back_constraint.hpp"

#include "framework/core/error.hpp"

namespace drbench {

arma::vec AffineBackConstraint::params() const {
  return arma::join_cols(arma::vectorise(W_), b_);
}

void AffineBackConstraint::set_params(const arma::vec& p) {
  const arma::uword q = W_.n_rows, m = W_.n_cols;
  if (p.n_elem != q * m + q)
    throw Error("internal: " + who_ + " expects " + std::to_string(q * m + q) +
                " parameters, got " + std::to_string(p.n_elem));
  W_ = arma::reshape(p.head(q * m), q, m);
  b_ = p.tail(q);
}

arma::mat AffineBackConstraint::affine(const arma::mat& F) const {
  arma::mat X = W_ * F;
  X.each_col() += b_;
  return X;
}

arma::vec AffineBackConstraint::chain_affine(const arma::mat& gX, const arma::mat& gW) {
  return arma::join_cols(arma::vectorise(gW), arma::vec(arma::sum(gX, 1)));
}

}  // namespace drbench
