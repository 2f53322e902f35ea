#include "methods/gplvm/init.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/neighbours/graph_weights.hpp"
#include "framework/support/time_limit.hpp"
#include "methods/common/graph_projection.hpp"

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

arma::mat kmeans_centres(const arma::mat& X, arma::uword m, Rng& rng, int iterations) {
  const arma::uword n = X.n_cols;
  if (m == 0 || m > n) throw Error("internal: k-means needs 1 <= m <= n centres");
  arma::mat C(X.n_rows, m);
  // k-means++: each next centre drawn with probability proportional to the squared distance to
  // the nearest centre so far.
  arma::vec d2(n, arma::fill::value(arma::datum::inf));
  C.col(0) = X.col(std::min<arma::uword>(n - 1, arma::uword(rng.uniform() * double(n))));
  for (arma::uword c = 1; c < m; ++c) {
    d2 = arma::min(d2, arma::sum(arma::square(X.each_col() - C.col(c - 1)), 0).t());
    const double total = arma::accu(d2);
    arma::uword pick = n - 1;
    if (total > 0.0) {
      const double u = rng.uniform() * total;
      double s = 0.0;
      for (arma::uword i = 0; i < n; ++i) {
        s += d2(i);
        if (s >= u && d2(i) > 0.0) {
          pick = i;
          break;
        }
      }
    }
    C.col(c) = X.col(pick);
  }
  arma::uvec owner(n, arma::fill::value(m));
  for (int it = 0; it < iterations; ++it) {
    check_task_deadline(it, std::numeric_limits<double>::quiet_NaN(), iterations);
    // |x - c|^2 = |x|^2 - 2 x.c + |c|^2; |x|^2 does not change the nearest centre.
    const arma::rowvec cc = arma::sum(arma::square(C), 0);
    arma::mat S(X.n_rows, m, arma::fill::zeros);
    arma::vec count(m, arma::fill::zeros);
    bool moved = false;
    for (arma::uword i0 = 0; i0 < n; i0 += 4096) {
      const arma::uword i1 = std::min(n, i0 + 4096);
      const arma::mat D = (-2.0 * (X.cols(i0, i1 - 1).t() * C)).eval().each_row() + cc;
      for (arma::uword i = i0; i < i1; ++i) {
        const arma::uword b = D.row(i - i0).index_min();
        moved = moved || b != owner(i);
        owner(i) = b;
        S.col(b) += X.col(i);
        count(b) += 1.0;
      }
    }
    for (arma::uword c = 0; c < m; ++c)
      if (count(c) > 0) C.col(c) = S.col(c) / count(c);
    if (!moved) break;
  }
  return C;
}

}  // namespace drbench
