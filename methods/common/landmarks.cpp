#include "methods/common/landmarks.hpp"

#include <algorithm>

namespace drbench {

arma::uvec maxmin_landmarks(const arma::mat& X, arma::uword m, Rng& rng) {
  const arma::uword n = X.n_cols;
  arma::uvec chosen(m);
  chosen(0) = std::min<arma::uword>(n - 1, arma::uword(rng.uniform() * n));
  arma::vec nearest = arma::sum(arma::square(X.each_col() - X.col(chosen(0))), 0).t();
  for (arma::uword j = 1; j < m; ++j) {
    chosen(j) = arma::index_max(nearest);
    nearest = arma::min(nearest, arma::sum(arma::square(X.each_col() - X.col(chosen(j))), 0).t());
  }
  return chosen;
}

}  // namespace drbench
