#include "methods/gplvm/init.hpp"

#include <algorithm>

#include "framework/core/error.hpp"

namespace drbench {

arma::mat pca_latent_init(const arma::mat& Y, arma::uword q, bool unit_variance, Rng& rng) {
  const arma::uword n = Y.n_cols;
  arma::mat U, V;
  arma::vec s;
  // Economical SVD of the smaller side: Y = U S V^T, scores = S V^T (rows = components).
  if (!arma::svd_econ(U, s, V, Y))
    throw MethodError("gplvm: SVD of the training data failed during PCA initialisation");
  arma::mat X(q, n);
  const double top = s.n_elem ? s(0) : 0.0;
  for (arma::uword k = 0; k < q; ++k) {
    const double sk = k < s.n_elem ? s(k) : 0.0;
    if (sk > 1e-10 * std::max(top, 1e-300)) {
      X.row(k) = sk * V.col(k).t();
      // Per-dimension variance of the scores is s_k^2 / n.
      if (unit_variance) X.row(k) /= sk / std::sqrt(double(n));
    } else {
      X.row(k) = 1e-3 * rng.randn(1, n);
    }
  }
  return X;
}

}  // namespace drbench
