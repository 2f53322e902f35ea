#include "framework/linalg/distances.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "framework/core/error.hpp"

namespace drbench {

arma::mat sq_distances(const arma::mat& A, const arma::mat& B) {
  if (A.n_rows != B.n_rows) throw Error("sq_distances: dimension mismatch");
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  const arma::rowvec b2 = arma::sum(arma::square(B), 0);
  // One pass over the product instead of a scaled copy, two broadcasts and a clamped copy: the
  // same operations in the same order ((-2 a'b + |a|^2) + |b|^2, then max(., 0); -2 x is exact),
  // so the same bits, without three n x m temporaries (their page faults cost as much as the
  // arithmetic at a few thousand points).
  arma::mat D = A.t() * B;
  const double* pa = a2.memptr();
  for (arma::uword j = 0; j < D.n_cols; ++j) {
    double* d = D.colptr(j);
    const double bj = b2[j];
    for (arma::uword i = 0; i < D.n_rows; ++i) {
      const double v = (-2.0 * d[i] + pa[i]) + bj;
      d[i] = v < 0.0 ? 0.0 : v;
    }
  }
  return D;
}

void sq_distances_into(const arma::mat& A, arma::mat& D) {
  // In D's own storage: an optimiser that calls this every iteration on thousands of points would
  // otherwise map and fault in fresh n x n pages. A'A is dispatched as before (a syrk in
  // Armadillo), and only its upper triangle is turned into distances and mirrored: the result
  // equals symmatu of the rectangular form, bit for bit.
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  D = A.t() * A;
  const arma::uword n = D.n_cols;
  const double* pa = a2.memptr();
  for (arma::uword j = 0; j < n; ++j) {
    double* d = D.colptr(j);
    const double aj = pa[j];
    for (arma::uword i = 0; i < j; ++i) {
      const double v = (-2.0 * d[i] + pa[i]) + aj;
      d[i] = v < 0.0 ? 0.0 : v;
    }
    d[j] = 0.0;
  }
  const arma::uword bs = 64;  // mirror by tiles, so neither side is walked along rows
  for (arma::uword jb = 0; jb < n; jb += bs)
    for (arma::uword ib = 0; ib <= jb; ib += bs)
      for (arma::uword j = jb; j < std::min(n, jb + bs); ++j)
        for (arma::uword i = ib; i < std::min(j, ib + bs); ++i) D(j, i) = D(i, j);
}

arma::mat sq_distances(const arma::mat& A) {
  arma::mat D;
  sq_distances_into(A, D);
  return D;
}

arma::mat unit_columns(const arma::mat& X) {
  arma::rowvec norms = arma::sqrt(arma::sum(arma::square(X), 0));
  norms.replace(0.0, 1.0);
  arma::mat U = X;
  U.each_row() /= norms;
  return U;
}

void double_centre(arma::mat& S) {
  const arma::vec r = arma::mean(S, 1);
  const double g = arma::mean(r);
  S.each_col() -= r;
  S.each_row() -= r.t();
  S += g;
  S *= -0.5;
}

}  // namespace drbench
