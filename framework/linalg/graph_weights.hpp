#pragma once
// Affinity graphs for the locality-preserving family (LPP, SLPP, MMPA) and their Laplacians.
// Sparse throughout: a kNN graph on N points has O(kN) edges, and the class-block graph of SLPP
// has sum_c n_c^2, far below N^2 for many classes.
#include <armadillo>

namespace drbench {

struct HeatGraph {
  arma::sp_mat W;  // symmetric, zero diagonal
  double t = 0.0;  // heat width actually used
};

// Heat-kernel weights on the symmetric kNN graph (He & Niyogi 2003, step 2):
// W_ij = exp(-|x_i - x_j|^2 / t) when i is among the k nearest of j or j among those of i.
// t <= 0 picks the mean squared distance of a point to its k nearest neighbours, a width on the
// scale of the graph's own edges.
HeatGraph heat_knn_weights(const arma::mat& X, arma::uword k, double t);

enum class ClassWeight { Heat, Binary };

// Supervised weights (SLPP, Zheng et al. 2007): W_ij = exp(-|x_i - x_j|^2 / t) (Heat) or 1
// (Binary) when x_i and x_j share a label and i != j, 0 otherwise. t <= 0 picks the mean squared
// distance between same-class pairs.
HeatGraph same_class_weights(const arma::mat& X, const arma::uvec& labels, ClassWeight kind,
                             double t);

// Row sums D_ii = sum_j W_ij.
arma::vec graph_degrees(const arma::sp_mat& W);

// Graph Laplacian L = D - W (sparse).
arma::sp_mat graph_laplacian(const arma::sp_mat& W);

// X L X^T and X D X^T for a d x n data matrix without densifying the n x n graph.
arma::mat laplacian_quadratic(const arma::mat& X, const arma::sp_mat& W);
arma::mat degree_quadratic(const arma::mat& X, const arma::sp_mat& W);

}  // namespace drbench
