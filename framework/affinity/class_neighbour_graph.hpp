#pragma once
// In the framework because the supervised neighbour embeddings (DEE, DSNE) restrict their sparse
// affinities by class: each point's nearest neighbours among the points of its own class, or among
// the points of the other classes. Both are searched by the shared neighbour graph routine
// (linalg/neighbour_graph.hpp) on each class's subset, so exact and approximate (HNSW) work as
// there. It sits in affinity, above linalg, because the class split (ClassPairs) is affinity's.
#include <armadillo>

#include "framework/affinity/weights.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

// Symmetric n x n sparse matrix of squared Euclidean distances on the edges i~j where j is among
// i's k nearest points of its own class (Same) or of the other classes (Different), or the
// reverse: the union of both directions. A point with fewer than k candidates is tied to all of
// them. A zero distance (duplicate points) is stored as the smallest positive double, since a
// sparse matrix cannot hold an explicit zero edge. labels: n entries in [0, n_classes). Each
// class's search uses the seed opt.seed + its class index, so the graph depends on the data and
// the seed only (and on no thread count).
arma::sp_mat class_neighbour_graph(const arma::mat& X, const arma::uvec& labels,
                                   arma::uword n_classes, arma::uword k, ClassPairs which,
                                   const GraphOptions& opt);

}  // namespace drbench
