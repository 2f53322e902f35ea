#pragma once
// UMAP's graph (McInnes, Healy & Melville 2018, section 3.1 and appendix; umap-learn 0.5's
// smooth_knn_dist and fuzzy_simplicial_set): each point's smooth kNN distances rho_i (distance to
// its nearest neighbour) and sigma_i (calibrated by bisection so its directed memberships
// exp(-(d_ij - rho_i) / sigma_i) sum to log2(k)), and the fuzzy union A + A^T - A o A^T.
#include <armadillo>
#include <cmath>

#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench::umap {

struct SmoothKnn {
  arma::vec rho;    // n: distance to the nearest neighbour (local connectivity 1) or 0
  arma::vec sigma;  // n: the calibrated bandwidth
};

// rho and sigma of every column of g (k x n distances, nearest first). `target` is the sum the
// memberships must reach (log2 of umap-learn's n_neighbors); `local_connectivity` 1 subtracts the
// nearest distance (the fit), 0 subtracts nothing (umap-learn's transform). Bisection as
// umap-learn: 64 halvings, tolerance 1e-5, sigma floored at 1e-3 x the point's mean distance (or
// the graph's mean distance where rho is 0), which is the only case the sum misses the target.
SmoothKnn smooth_knn(const arma::mat& dist, double target, double local_connectivity,
                     unsigned threads);

// The directed membership of one edge: exp(-(d - rho) / sigma), 1 where d <= rho.
inline double membership(double d, double rho, double sigma) {
  const double t = d - rho;
  return t <= 0.0 ? 1.0 : std::exp(-t / sigma);
}

// The directed memberships (k x n, column i: i's edges to g.index(:, i)).
arma::mat memberships(const NeighbourGraph& g, const SmoothKnn& s);

// The fuzzy union of the directed graph W (column i holds i's edges): n x n symmetric,
// A + A^T - A o A^T with A(j, i) = W(:, i)'s membership of j, entries in [0, 1].
arma::sp_mat fuzzy_union(const NeighbourGraph& g, const arma::mat& W);

// a and b of the low-dimensional similarity 1 / (1 + a d^(2b)), fitted by least squares (Levenberg-
// Marquardt from a = b = 1, as scipy's curve_fit) to the curve that is 1 up to min_dist and
// exp(-(d - min_dist) / spread) beyond, on 300 points of [0, 3 spread] (umap-learn's
// find_ab_params).
struct CurveAb {
  double a = 0.0, b = 0.0;
};
CurveAb fit_ab(double spread, double min_dist);

// Number of connected components of a symmetric sparse graph.
arma::uword components(const arma::sp_mat& G);

}  // namespace drbench::umap
