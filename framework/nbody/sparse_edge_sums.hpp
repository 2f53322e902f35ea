#pragma once
// In the framework because t-SNE (P), the linear-time EE (w+) and the linear-time DSNE (P) all
// compute their attraction as one pass over a sparse graph's stored entries: per point, a scalar
// term and a force along each edge, read off the embedded squared distance.
#include <armadillo>
#include <cstddef>
#include <string>

#include "framework/core/error.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

// What one edge adds: `energy` to its point's scalar sum and `weight` x (y_i - y_j) to its force.
struct EdgeTerms {
  double energy;
  double weight;
};

// For every point i of Y (D x n) and the stored entries w_ij of column i of W (n x n, synced):
//   e[i] = sum_j t.energy,   F[D i + k] = sum_j t.weight (y_i - y_j)_k,   t = edge(w_ij, |y_i -
//   y_j|^2)
// added in stored order; e may be null. Points run on `threads` threads, each writing only its own
// entries, so the sums are the same bits for any thread count.
template <int D, class Edge>
void sparse_edge_sums(const arma::sp_mat& W, const arma::mat& Y, unsigned threads, Edge edge,
                      double* e, double* F) {
  const arma::uword* cp = W.col_ptrs;
  const arma::uword* ri = W.row_indices;
  const double* wv = W.values;
  parallel_blocks(Y.n_cols, threads, [&](std::size_t b, std::size_t end, std::size_t) {
    for (std::size_t i = b; i < end; ++i) {
      const double* yi = Y.colptr(i);
      double acc = 0.0, f[D] = {};
      for (arma::uword q = cp[i]; q < cp[i + 1]; ++q) {
        const double* yj = Y.colptr(ri[q]);
        double u[D], d2 = 0.0;
        for (int k = 0; k < D; ++k) {
          u[k] = yi[k] - yj[k];
          d2 += u[k] * u[k];
        }
        const EdgeTerms t = edge(wv[q], d2);
        acc += t.energy;
        for (int k = 0; k < D; ++k) f[k] += t.weight * u[k];
      }
      if (e) e[i] = acc;
      for (int k = 0; k < D; ++k) F[D * i + k] = f[k];
    }
  });
}

// The same for an embedding of 1 to 3 dimensions chosen at run time.
template <class Edge>
void sparse_edge_sums(const arma::sp_mat& W, const arma::mat& Y, unsigned threads, Edge edge,
                      double* e, double* F) {
  switch (Y.n_rows) {
    case 1:
      return sparse_edge_sums<1>(W, Y, threads, edge, e, F);
    case 2:
      return sparse_edge_sums<2>(W, Y, threads, edge, e, F);
    case 3:
      return sparse_edge_sums<3>(W, Y, threads, edge, e, F);
    default:
      throw Error("internal: sparse_edge_sums in " + std::to_string(Y.n_rows) +
                  " dimensions (1 to 3)");
  }
}

}  // namespace drbench
