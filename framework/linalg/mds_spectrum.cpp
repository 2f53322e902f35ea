#include "framework/linalg/mds_spectrum.hpp"

#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/dense_eigs.hpp"

namespace drbench {

void MdsSpectrum::fit(const arma::mat& D2, arma::uword dim, const char* what) {
  const arma::uword n = D2.n_rows;
  if (dim == 0 || dim >= n)
    throw MethodError(std::string(what) + ": dims=" + std::to_string(dim) + " must be in 1.." +
                      std::to_string(n - 1) + " for " + std::to_string(n) + " training points");
  double_centred_eigs(lambda_, V_, D2, dim);
  const double tol = 1e-10 * std::max(1.0, std::abs(lambda_(0)));
  for (arma::uword k = 0; k < dim; ++k)
    if (!(lambda_(k) > tol))
      throw MethodError(std::string(what) + ": only " + std::to_string(k) +
                        " positive eigenvalues in the double-centred distance matrix, dims=" +
                        std::to_string(dim) + " requested; lower dims");
  // Deterministic signs: the largest-magnitude entry of every eigenvector is positive.
  for (arma::uword k = 0; k < dim; ++k)
    if (V_(arma::index_max(arma::abs(V_.col(k))), k) < 0) V_.col(k) *= -1.0;
  col_mean_ = arma::vec(arma::mean(D2, 0).t());
  grand_mean_ = arma::mean(col_mean_);
  Y_ = (V_.each_row() % arma::sqrt(lambda_).t()).t();
}

arma::mat MdsSpectrum::extend(const arma::mat& D2new) const {
  arma::mat K = D2new;                   // n x m
  K.each_col() -= col_mean_;             // - mean_i d2(x_i, x_j)
  K.each_row() -= arma::mean(D2new, 0);  // - mean_i d2(x, x_i)
  K += grand_mean_;
  K *= -0.5;
  arma::mat Y = V_.t() * K;  // dim x m
  Y.each_col() /= arma::sqrt(lambda_);
  return Y;
}

}  // namespace drbench
