#pragma once
// What the Barnes-Hut walks of Gaussian-kernel repulsions (EE's, the class-split DEE/DSNE ones)
// share: the cut-off of negligible cells and dot products and squared distances over the input
// dimension with four independent partial sums (one running sum is a chain of dependent additions
// that the compiler may not reorder, and at D = 50 that chain, not the arithmetic, bounds the
// walk). The summation order is part of the results: keep it.
#include <armadillo>
#include <cmath>

namespace drbench {

// A cell none of whose points can be nearer than sqrt(kNegligibleD2) adds at most
// exp(-kNegligibleD2) ~ 2e-22 times its weights: skipped.
constexpr double kNegligibleD2 = 50.0;

// Whether every point of a D-dimensional cell at squared distance d2 from its centre of mass
// (squared largest side width2: SpaceTree's prune arguments) is that far away.
template <int D>
inline bool gaussian_cell_negligible(double d2, double width2) {
  const double r = std::sqrt(d2) - std::sqrt(D * width2);
  return r > 0 && r * r > kNegligibleD2;
}

inline double dot4(const double* a, const double* b, arma::uword n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  arma::uword r = 0;
  for (; r + 4 <= n; r += 4) {
    s0 += a[r] * b[r];
    s1 += a[r + 1] * b[r + 1];
    s2 += a[r + 2] * b[r + 2];
    s3 += a[r + 3] * b[r + 3];
  }
  for (; r < n; ++r) s0 += a[r] * b[r];
  return (s0 + s1) + (s2 + s3);
}

// a . (b1 - b0) in one pass.
inline double dot_diff4(const double* a, const double* b1, const double* b0, arma::uword n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  arma::uword r = 0;
  for (; r + 4 <= n; r += 4) {
    s0 += a[r] * (b1[r] - b0[r]);
    s1 += a[r + 1] * (b1[r + 1] - b0[r + 1]);
    s2 += a[r + 2] * (b1[r + 2] - b0[r + 2]);
    s3 += a[r + 3] * (b1[r + 3] - b0[r + 3]);
  }
  for (; r < n; ++r) s0 += a[r] * (b1[r] - b0[r]);
  return (s0 + s1) + (s2 + s3);
}

inline double sqdist4(const double* a, const double* b, arma::uword n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  arma::uword r = 0;
  for (; r + 4 <= n; r += 4) {
    const double t0 = a[r] - b[r], t1 = a[r + 1] - b[r + 1], t2 = a[r + 2] - b[r + 2],
                 t3 = a[r + 3] - b[r + 3];
    s0 += t0 * t0;
    s1 += t1 * t1;
    s2 += t2 * t2;
    s3 += t3 * t3;
  }
  for (; r < n; ++r) s0 += (a[r] - b[r]) * (a[r] - b[r]);
  return (s0 + s1) + (s2 + s3);
}

}  // namespace drbench
