#include "framework/eval/intrinsic_dim.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

double mle_intrinsic_dimension(const arma::mat& X, arma::uword k1, arma::uword k2) {
  const arma::uword n = X.n_cols;
  if (k1 < 2 || k2 < k1 || k2 >= n)
    throw std::invalid_argument(
        "intrinsic dimension: needs 2 <= k1 <= k2 < n (k1=" + std::to_string(k1) +
        ", k2=" + std::to_string(k2) + ", n=" + std::to_string(n) + ")");
  const arma::umat nn = neighbour_graph(X, k2, {GraphKind::exact}).index;
  // log T_j(x) for j = 1..k2, the k2 nearest distances of every point (k2 x n).
  arma::mat logT(k2, n);
  arma::uvec usable(n, arma::fill::ones);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < k2; ++j) {
      const double d = arma::norm(X.col(i) - X.col(nn(j, i)));
      if (d <= 0) usable(i) = 0;
      logT(j, i) = d > 0 ? std::log(d) : 0.0;
    }
  const arma::uvec keep = arma::find(usable);
  if (keep.is_empty())
    throw std::invalid_argument("intrinsic dimension: every point has a duplicate neighbour");
  double total = 0;
  for (arma::uword k = k1; k <= k2; ++k) {
    double inverse_sum = 0;  // sum over points of 1 / m_k(x)
    for (const arma::uword i : keep) {
      double s = 0;
      for (arma::uword j = 0; j + 1 < k; ++j) s += logT(k - 1, i) - logT(j, i);
      inverse_sum += s / double(k - 1);
    }
    total += double(keep.n_elem) / inverse_sum;
  }
  return total / double(k2 - k1 + 1);
}

}  // namespace drbench
