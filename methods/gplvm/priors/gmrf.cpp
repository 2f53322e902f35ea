#include "methods/gplvm/priors/gmrf.hpp"

#include <string>

#include "framework/core/error.hpp"

namespace drbench {

GmrfPrior::GmrfPrior(const arma::uvec& labels, std::size_t n_classes, double alpha)
    : labels_(labels), class_size_(n_classes, arma::fill::zeros), alpha_(alpha) {
  if (!(alpha > 0))
    throw MethodError("GMRF prior: 'alpha' must be > 0, got " + std::to_string(alpha));
  if (n_classes == 0 || labels.is_empty())
    throw MethodError("GMRF prior: needs the training labels (supervised method)");
  if (labels.max() >= n_classes)
    throw MethodError("GMRF prior: label " + std::to_string(labels.max()) + " outside 0.." +
                      std::to_string(n_classes - 1));
  for (arma::uword c : labels_) class_size_(c) += 1.0;
}

arma::mat GmrfPrior::apply_laplacian(const arma::mat& X) const {
  if (X.n_cols != labels_.n_elem)
    throw Error("internal: GMRF prior built for " + std::to_string(labels_.n_elem) +
                " points, got " + std::to_string(X.n_cols));
  arma::mat sums(X.n_rows, class_size_.n_elem, arma::fill::zeros);
  for (arma::uword i = 0; i < X.n_cols; ++i) sums.col(labels_(i)) += X.col(i);
  arma::mat LX(X.n_rows, X.n_cols);
  for (arma::uword i = 0; i < X.n_cols; ++i)
    LX.col(i) = class_size_(labels_(i)) * X.col(i) - sums.col(labels_(i));
  return LX;
}

double GmrfPrior::value_grad(const arma::mat& X, arma::mat* gX) const {
  const arma::mat LX = apply_laplacian(X);
  if (gX) *gX = alpha_ * LX;
  return 0.5 * alpha_ * arma::accu(X % LX);
}

}  // namespace drbench
