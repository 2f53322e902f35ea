#pragma once
// Affinity graphs for the locality-preserving family (LPP, SLPP, MMPA) and their Laplacians.
// Sparse throughout: a kNN graph on N points has O(kN) edges, and the class-block graph of SLPP
// has sum_c n_c^2, far below N^2 for many classes.
#include <armadillo>

#include "framework/core/keywords.hpp"

namespace drbench {

// The heat kernel exp(-d2 / t) of a squared distance d2, floored at 1e-300: an edge weight must
// never underflow to an exact 0, which a sparse matrix would drop as a missing edge. Every heat
// weight in drbench (LPP, SLPP, KLPP, SKLPP) goes through here; the methods differ only in how
// they choose t.
double heat_kernel(double sq_dist, double t);

// heat_kernel(d^2, t) on every stored edge of a sparse graph whose values are Euclidean
// distances d (knn_graph, class graphs). Throws if t is not positive and finite.
arma::sp_mat heat_edge_weights(const arma::sp_mat& dist_graph, double t);

// Mean of d^2 over the stored edges of such a graph (0 for an empty graph).
double mean_sq_edge_length(const arma::sp_mat& dist_graph);

struct HeatGraph {
  arma::sp_mat W;  // symmetric, zero diagonal
  double t = 0.0;  // heat width actually used
};

// Heat-kernel weights on the symmetric kNN graph (He & Niyogi 2003, step 2):
// W_ij = exp(-|x_i - x_j|^2 / t) when i is among the k nearest of j or j among those of i.
// t = width.heat_t(reference): a relative width multiplies the mean squared distance of a point
// to its k nearest neighbours (width 1 is that t itself), a width on the scale of the graph's
// own edges; an absolute one gives t = 2 sigma^2.
HeatGraph heat_knn_weights(const arma::mat& X, arma::uword k, const keywords::KernelWidth& width);

enum class ClassWeight { Heat, Binary };

// Supervised weights (SLPP, Zheng et al. 2007): W_ij = exp(-|x_i - x_j|^2 / t) (Heat) or 1
// (Binary) when x_i and x_j share a label and i != j, 0 otherwise. The reference of a relative
// width is the mean squared distance between same-class pairs.
HeatGraph same_class_weights(const arma::mat& X, const arma::uvec& labels, ClassWeight kind,
                             const keywords::KernelWidth& width);

// What the LPP eigenproblem needs of the same-class graph, Z L Z^T and Z D Z^T, for Z the data
// after the PCA pre-step (r x n, columns matching X's), without storing the sum_c n_c^2 edges:
// each class's weights are made one block of columns at a time from X's distances (n_c x 256
// at most) and folded into the r x r sums. The same weights as same_class_weights (t from the
// same mean, computed in closed form), summed in a different order.
struct ClassQuadratics {
  arma::mat ZLZ, ZDZ;
  double t = 0.0;
};
ClassQuadratics same_class_quadratics(const arma::mat& X, const arma::mat& Z,
                                      const arma::uvec& labels, ClassWeight kind,
                                      const keywords::KernelWidth& width);

// Row sums D_ii = sum_j W_ij.
arma::vec graph_degrees(const arma::sp_mat& W);

// Graph Laplacian L = D - W (sparse).
arma::sp_mat graph_laplacian(const arma::sp_mat& W);

// X L X^T and X D X^T for a d x n data matrix without densifying the n x n graph.
arma::mat laplacian_quadratic(const arma::mat& X, const arma::sp_mat& W);
arma::mat degree_quadratic(const arma::mat& X, const arma::sp_mat& W);

}  // namespace drbench
