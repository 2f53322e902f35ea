#pragma once
// The squared distance of two columns of one matrix, for code that visits a few pairs one at a
// time (the full matrices are distances.hpp's).
#include <armadillo>

namespace drbench {

// |x_a - x_b|^2, summed coordinate by coordinate: exact where the BLAS form of sq_distances loses
// digits to cancellation.
inline double column_sq_distance(const arma::mat& X, arma::uword a, arma::uword b) {
  const double* p = X.colptr(a);
  const double* q = X.colptr(b);
  double s = 0;
  for (arma::uword r = 0; r < X.n_rows; ++r) s += (p[r] - q[r]) * (p[r] - q[r]);
  return s;
}

}  // namespace drbench
