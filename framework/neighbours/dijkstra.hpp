#pragma once
// Shortest paths on sparse neighbour graphs (Isomap's geodesics). The graph stays in Armadillo's
// CSC arrays and is never densified; only the n x n answer is dense.
#include <armadillo>

namespace drbench {

// Component label (0..n_components-1) of every node of the symmetric graph G; labels are
// numbered by first appearance, and n_components is set on return.
arma::uvec connected_components(const arma::sp_mat& G, arma::uword& n_components);

// Shortest-path lengths between all pairs of nodes of the symmetric graph G with positive edge
// lengths: Dijkstra with a binary heap from every source, O(n E log n). Column s holds the
// distances from node s; unreachable nodes get +inf. Returns squared lengths when `squared`
// (classical MDS needs those, and storing them alone halves the memory of an n x n pass).
arma::mat all_pairs_shortest_paths(const arma::sp_mat& G, bool squared = false);

// Shortest-path lengths from each of the given sources to every node (n x m, column j from
// sources(j)): landmark Isomap's geodesics in O(n m) memory. Sources are split over `threads`;
// each writes its own column, so the result does not depend on the thread count.
arma::mat shortest_paths_from(const arma::sp_mat& G, const arma::uvec& sources, bool squared,
                              unsigned threads = 1);

}  // namespace drbench
