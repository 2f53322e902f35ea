#include "methods/gplvm/init.hpp"

#include <algorithm>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/graph_projection.hpp"
#include "framework/linalg/graph_weights.hpp"
#include "framework/linalg/pca.hpp"

namespace drbench {

arma::mat pca_latent_init(const arma::mat& Y, arma::uword q, bool unit_variance, Rng& rng) {
  const arma::uword n = Y.n_cols;
  // The one PCA (framework/linalg/pca.hpp) of the centred data; scores W^T Y, one row per
  // component, with singular values s_k = sqrt((n-1) var_k).
  PcaBasis b = pca_of_centred(Y);
  fix_signs(b.W);
  const arma::vec s = arma::sqrt(b.variances * double(n - 1));
  arma::mat X(q, n);
  const double top = s.n_elem ? s(0) : 0.0;
  for (arma::uword k = 0; k < q; ++k) {
    const double sk = k < s.n_elem ? s(k) : 0.0;
    if (sk > 1e-10 * std::max(top, 1e-300)) {
      X.row(k) = b.W.col(k).t() * Y;
      // Per-dimension variance of the scores is s_k^2 / n.
      if (unit_variance) X.row(k) /= sk / std::sqrt(double(n));
    } else {
      X.row(k) = 1e-3 * rng.randn(1, n);
    }
  }
  return X;
}

arma::mat slpp_latent_init(const arma::mat& Y, const arma::uvec& labels, arma::uword q) {
  const HeatGraph g = same_class_weights(Y, labels, ClassWeight::Heat, keywords::KernelWidth{});
  const GraphProjection p = solve_lpp(Y, g.W, q, 1.0, 1e-8, "gplvm (init: slpp)");
  arma::mat X = p.A.t() * (Y.each_col() - p.mean);
  X.each_col() -= arma::mean(X, 1);
  arma::vec sd = arma::stddev(X, 1, 1);
  sd.replace(0.0, 1.0);
  X.each_col() /= sd;
  return X;
}

}  // namespace drbench
