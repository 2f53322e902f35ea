#pragma once
// Probabilistic PCA (Tipping & Bishop, JRSS-B 61(3), 1999): y = W x + mu + eps, x ~ N(0, I),
// eps ~ N(0, sigma^2 I). The maximum-likelihood solution is closed form (eq. 7-8):
//   W = U_q (L_q - sigma^2 I)^{1/2},  sigma^2 = mean of the d - q discarded eigenvalues of the
// sample covariance S (1/n normalisation). Points map to their posterior mean
// <x|y> = M^-1 W^T (y - mu) with M = W^T W + sigma^2 I (section 3.2).
#include <armadillo>

#include "methods/common/linear_method.hpp"

namespace drbench {

struct PpcaModel {
  arma::vec mean;  // d
  arma::mat W;     // d x q
  double sigma2 = 0.0;
  // q x d posterior-mean map M^-1 W^T.
  arma::mat posterior_map() const;
  // Log-likelihood of the columns of Y (d x n) under N(mean, W W^T + sigma2 I).
  double log_likelihood(const arma::mat& Y) const;
};

// Maximum-likelihood PPCA of the columns of Y (d x n) with q latent dimensions, 1 <= q < d,
// q <= n - 1.
PpcaModel ppca_fit(const arma::mat& Y, arma::uword q);

// Initial latent positions for GP-LVM style models: the PPCA posterior means (q x n) of the
// columns of Y (d x n). Deterministic (sign convention of fix_signs).
arma::mat ppca_init(const arma::mat& Y, arma::uword q);

class Ppca final : public LinearMethod {
 public:
  Ppca() : LinearMethod("ppca") {}
  void fit(const FitInput& in) override;
  const PpcaModel& model() const { return model_; }

 private:
  PpcaModel model_;
};

}  // namespace drbench
