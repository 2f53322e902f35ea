#include "methods/common/landmarks.hpp"

#include <algorithm>

#include "framework/linalg/mds_spectrum.hpp"

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

void LandmarkTriangulation::fit(arma::mat Dm, arma::uword dim, const char* what) {
  Dm = 0.5 * (Dm + Dm.t());
  delta_mean_ = arma::vec(arma::mean(Dm, 1));
  MdsSpectrum lmds;
  lmds.fit(Dm, dim, what);
  Lsharp_ = lmds.embedding();
  Lsharp_.each_col() /= lmds.eigenvalues();
}

arma::mat LandmarkTriangulation::place(arma::mat D2) const {
  D2.each_col() -= delta_mean_;
  return -0.5 * (Lsharp_ * D2);
}

}  // namespace drbench
