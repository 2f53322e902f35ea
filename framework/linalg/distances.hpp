#pragma once
// Pairwise distances and neighbour graphs shared by kNN evaluation and the graph-based methods.
#include <armadillo>
#include <vector>

namespace drbench {

// Squared Euclidean distances between the columns of A (d x n) and B (d x m): n x m, computed as
// |a|^2 + |b|^2 - 2 A^T B with one BLAS-3 product, clamped at 0 against rounding.
arma::mat sq_distances(const arma::mat& A, const arma::mat& B);
arma::mat sq_distances(const arma::mat& A);  // A against itself, exact zeros on the diagonal
// The same into D, reusing D's storage when it already has the size.
void sq_distances_into(const arma::mat& A, arma::mat& D);

// Columns scaled to unit length (zero columns stay zero, equidistant from every unit vector):
// Euclidean neighbours of the result are the cosine neighbours of the input, since
// |a/|a| - b/|b||^2 = 2 - 2 cos(a, b). Used by the cosine kNN and the unit_norm preprocessing.
arma::mat unit_columns(const arma::mat& X);

// Indices (k x n) of the k nearest other columns of X for every column, nearest first; ties in
// distance go to the lower index so graphs never depend on sort stability.
arma::umat knn_graph_indices(const arma::mat& X, arma::uword k);

// The k nearest columns of X (the training points) of every column of Q (new points), by brute
// force over one BLAS-3 distance matrix, nearest first and ties to the lower index: `index` and
// `sq_dist` are k x m. `duplicate[q]` says Q's column q equals its nearest training point exactly,
// which the BLAS-3 distances cannot say (they leave ~1e-15 between equal points). The out-of-sample
// maps of the small-problem paths of LE and LLE, as the committed results computed them.
struct QueryNeighbours {
  arma::umat index;
  arma::mat sq_dist;
  std::vector<bool> duplicate;
};
QueryNeighbours query_neighbours(const arma::mat& X, const arma::mat& Q, arma::uword k);

// Symmetric sparse adjacency of the kNN graph (i~j when either is among the other's k nearest),
// weighted by the Euclidean distance. Never densified: Isomap on thousands of points relies on it.
arma::sp_mat knn_graph(const arma::mat& X, arma::uword k);

// S <- -H S H / 2 with H = I - 11^T/n, in place and without forming H: Torgerson's tau, the Gram
// matrix of a centred configuration with squared distances S (classical MDS, Isomap, IP, OIP).
void double_centre(arma::mat& S);

}  // namespace drbench
