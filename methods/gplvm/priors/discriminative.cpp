#include "methods/gplvm/priors/discriminative.hpp"

#include <string>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

struct Scatter {
  arma::mat means;  // q x C class means
  arma::vec m0;     // overall mean
  arma::mat Sw, Sb;
};

Scatter scatter(const arma::mat& X, const arma::uvec& labels, const arma::vec& class_size) {
  const double n = static_cast<double>(X.n_cols);
  Scatter s;
  s.means.zeros(X.n_rows, class_size.n_elem);
  for (arma::uword i = 0; i < X.n_cols; ++i) s.means.col(labels(i)) += X.col(i);
  for (arma::uword c = 0; c < class_size.n_elem; ++c)
    if (class_size(c) > 0) s.means.col(c) /= class_size(c);
  s.m0 = arma::mean(X, 1);
  arma::mat dev(X.n_rows, X.n_cols);
  for (arma::uword i = 0; i < X.n_cols; ++i) dev.col(i) = X.col(i) - s.means.col(labels(i));
  s.Sw = dev * dev.t() / n;
  arma::mat B = s.means.each_col() - s.m0;
  s.Sb = B * arma::diagmat(class_size / n) * B.t();
  return s;
}

}  // namespace

DiscriminativePrior::DiscriminativePrior(const arma::uvec& labels, std::size_t n_classes,
                                         double sigma_d, double ridge)
    : labels_(labels), class_size_(n_classes, arma::fill::zeros), sigma_d_(sigma_d), ridge_(ridge) {
  if (!(sigma_d > 0))
    throw MethodError("discriminative prior: 'sigma_d' must be > 0, got " +
                      std::to_string(sigma_d));
  if (n_classes < 2 || labels.is_empty())
    throw MethodError("discriminative prior: needs training labels with at least 2 classes");
  if (labels.max() >= n_classes)
    throw MethodError("discriminative prior: label " + std::to_string(labels.max()) +
                      " outside 0.." + std::to_string(n_classes - 1));
  for (arma::uword c : labels_) class_size_(c) += 1.0;
}

double DiscriminativePrior::criterion(const arma::mat& X) const {
  Scatter s = scatter(X, labels_, class_size_);
  s.Sw.diag() += ridge_;
  return arma::trace(arma::solve(s.Sw, s.Sb, arma::solve_opts::likely_sympd));
}

double DiscriminativePrior::value_grad(const arma::mat& X, arma::mat* gX) const {
  if (X.n_cols != labels_.n_elem)
    throw Error("internal: discriminative prior built for " + std::to_string(labels_.n_elem) +
                " points, got " + std::to_string(X.n_cols));
  Scatter s = scatter(X, labels_, class_size_);
  s.Sw.diag() += ridge_;
  arma::mat Ainv;
  if (!arma::inv_sympd(Ainv, s.Sw))
    throw MethodError(
        "discriminative prior: within-class scatter is singular; raise 'ridge' or "
        "lower the latent dimension");
  const arma::mat AinvSb = Ainv * s.Sb;
  const double J = arma::trace(AinvSb);
  const double s2 = sigma_d_ * sigma_d_;
  if (!(J > 0)) {
    // All class means coincide: the prior is flat at +inf penalty; report it as unusable.
    if (gX) gX->zeros(X.n_rows, X.n_cols);
    return arma::datum::inf;
  }
  if (gX) {
    const double n = static_cast<double>(X.n_cols);
    const arma::mat GA = AinvSb * Ainv;  // A^-1 S_b A^-1
    arma::mat dJ(X.n_rows, X.n_cols);
    const arma::mat between = Ainv * (s.means.each_col() - s.m0);  // q x C
    for (arma::uword i = 0; i < X.n_cols; ++i) dJ.col(i) = between.col(labels_(i));
    arma::mat dev(X.n_rows, X.n_cols);
    for (arma::uword i = 0; i < X.n_cols; ++i) dev.col(i) = X.col(i) - s.means.col(labels_(i));
    dJ -= GA * dev;
    dJ *= 2.0 / n;
    *gX = (-1.0 / (s2 * J * J)) * dJ;
  }
  return 1.0 / (s2 * J);
}

}  // namespace drbench
