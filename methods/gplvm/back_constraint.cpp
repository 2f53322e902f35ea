#include "methods/gplvm/back_constraint.hpp"

#include "framework/core/error.hpp"

namespace drbench {

arma::vec affine_params(const arma::mat& W, const arma::vec& b) {
  return arma::join_cols(arma::vectorise(W), b);
}

void set_affine_params(const arma::vec& p, arma::mat& W, arma::vec& b, const std::string& who) {
  const arma::uword q = W.n_rows, m = W.n_cols;
  if (p.n_elem != q * m + q)
    throw Error("internal: " + who + " expects " + std::to_string(q * m + q) + " parameters, got " +
                std::to_string(p.n_elem));
  W = arma::reshape(p.head(q * m), q, m);
  b = p.tail(q);
}

}  // namespace drbench
