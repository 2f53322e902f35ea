#pragma once
// What the linear neighbour embeddings (DEE, DSNE) share: the parameters are a projection A
// (dim x D, stored column-major in a vector for the optimisers), the embedding is Y = A X, and
// every pairwise objective of the squared distances d_nm = |A x_n - A x_m|^2 has the gradient
//   dE/dA = sum_nm (dE/dd_nm) 2 A x_nm x_nm^T = 4 A X L_K X^T = 4 (Y L_K) X^T
// with K_nm = dE/dd_nm (symmetric) and L_K = diag(K 1) - K its graph Laplacian.
#include <algorithm>
#include <armadillo>
#include <cmath>

#include "framework/core/rng.hpp"
#include "framework/linalg/pca.hpp"

namespace drbench {

// Squared distances between the columns of Y (exact zeros on the diagonal, clamped at 0).
inline arma::mat embedded_sq_distances(const arma::mat& Y) {
  const arma::rowvec sq = arma::sum(arma::square(Y), 0);
  arma::mat D2 = -2.0 * (Y.t() * Y);
  D2.each_col() += sq.t();
  D2.each_row() += sq;
  D2.elem(arma::find(D2 < 0)).zeros();
  D2.diag().zeros();
  return D2;
}

// Copies the strict lower triangle of a square matrix onto the upper one, in cache-sized blocks
// (arma::symmatl walks the upper triangle row by row, which costs more than the N^2 exponentials
// the objectives compute).
inline void mirror_lower(arma::mat& K) {
  const arma::uword n = K.n_rows, b = 64;
  for (arma::uword j0 = 0; j0 < n; j0 += b)
    for (arma::uword i0 = j0; i0 < n; i0 += b) {
      const arma::uword j1 = std::min(n, j0 + b), i1 = std::min(n, i0 + b);
      for (arma::uword j = j0; j < j1; ++j)
        for (arma::uword i = std::max(i0, j + 1); i < i1; ++i) K(j, i) = K(i, j);
    }
}

// Squared distance between columns i and j of Y, accumulated directly: for dim << N this is far
// cheaper than a Gram matrix Y^T Y, which BLAS handles poorly with an inner dimension of 2.
inline double column_sq_distance(const arma::mat& Y, arma::uword i, arma::uword j) {
  const double* a = Y.colptr(i);
  const double* b = Y.colptr(j);
  double s = 0.0;
  for (arma::uword k = 0; k < Y.n_rows; ++k) {
    const double t = a[k] - b[k];
    s += t * t;
  }
  return s;
}

// 4 (Y L_K) X^T for a symmetric K with zero diagonal: dim x D, O(dim N^2 + dim N D).
inline arma::mat laplacian_gradient(const arma::mat& Y, const arma::mat& K, const arma::mat& X) {
  arma::mat YL = Y.each_row() % arma::sum(K, 0);
  YL -= Y * K;
  return 4.0 * YL * X.t();
}

// A random start: Gaussian entries scaled so that the embedded points' root-mean-square distance
// to their mean is `spread` (small, so the first iterations see the nearly quadratic regime and
// the optimisers, not the start, decide the layout).
inline arma::mat random_projection_start(arma::uword dim, const arma::mat& Xc, Rng& rng,
                                         double spread) {
  arma::mat A = rng.randn(dim, Xc.n_rows);
  const double rms = std::sqrt(arma::accu(arma::square(A * Xc)) / double(Xc.n_cols));
  if (rms > 0) A *= spread / rms;
  return A;
}

// A deterministic start: the leading principal directions of the data X (uncentred) as the rows
// of A (the one PCA's pca_start, its sign rule), scaled as random_projection_start scales its
// Gaussian rows. Rows that start orthogonal keep the fit from spending all dim rows on the one
// most discriminative direction.
inline arma::mat pca_projection_start(arma::uword dim, const arma::mat& X, double spread) {
  return pca_start(X, dim, {PcaSigns::Directions, PcaStartScale::RmsRadius, spread}).projection;
}

// Sums of |x_n - x_m|^2 over ordered pairs n != m, all and within classes, with the numbers of
// such pairs, in O(N D) from sum_{n, m in c} |x_n - x_m|^2 = 2 N_c sum_{n in c} |x_n - mean_c|^2:
// what the dense paths read off their N x N distance matrices (the mean same-class squared
// distance of the kernel width, the total of DEE's w-), for the linear-time paths.
struct PairDistanceTotals {
  double all = 0.0, same = 0.0;              // sums of squared distances
  double all_pairs = 0.0, same_pairs = 0.0;  // ordered pairs counted
  double different() const { return all - same; }
};
inline PairDistanceTotals pair_distance_totals(const arma::mat& X, const arma::uvec& labels) {
  PairDistanceTotals t;
  const double n = double(X.n_cols);
  auto scatter = [](const arma::mat& Z) {
    const arma::mat C = Z.each_col() - arma::mean(Z, 1);
    return arma::accu(arma::square(C));
  };
  t.all = 2.0 * n * scatter(X);
  t.all_pairs = n * (n - 1.0);
  const arma::uvec classes = arma::unique(labels);
  for (arma::uword c : classes) {
    const arma::uvec idx = arma::find(labels == c);
    const double nc = double(idx.n_elem);
    t.same += 2.0 * nc * scatter(X.cols(idx));
    t.same_pairs += nc * (nc - 1.0);
  }
  return t;
}

}  // namespace drbench
