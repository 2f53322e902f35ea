#pragma once
// Pairwise distances. Neighbour searches and graphs are framework/neighbours' (one owner).
#include <armadillo>

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

// S <- -H S H / 2 with H = I - 11^T/n, in place and without forming H: Torgerson's tau, the Gram
// matrix of a centred configuration with squared distances S (classical MDS, Isomap, IP, OIP).
void double_centre(arma::mat& S);

}  // namespace drbench
