#pragma once
// Geodesic (graph shortest-path) distances for Isomap-style methods (IP, IP+SR, OIP, SOIP).
#include <armadillo>

namespace drbench {

// All-pairs shortest path lengths on an undirected graph given as a symmetric sparse adjacency
// whose values are edge lengths (> 0). Dijkstra with a binary heap from every source:
// O(N (E + N) log N), the n x n result is the only dense object. Unreachable pairs are +inf.
arma::mat geodesic_distances(const arma::sp_mat& G);

// Connected component of every node (ids 0..count-1, numbered in order of their first node).
arma::uvec connected_components(const arma::sp_mat& G, arma::uword& count);

// G with the components joined: between every pair of components the closest pair of points
// (Euclidean, columns of X) gets an edge, as scikit-learn's Isomap does since 1.0. Returns G
// unchanged when it is already connected; `count` receives the number of components found.
arma::sp_mat connect_components(const arma::mat& X, const arma::sp_mat& G, arma::uword& count);

}  // namespace drbench
