#pragma once
// Geodesic (graph shortest-path) distances for the isometric projections (IP, IP+SR, OIP, SOIP),
// on top of the Dijkstra and component search in dijkstra.hpp.
#include <armadillo>

#include "framework/linalg/dijkstra.hpp"

namespace drbench {

// All-pairs shortest path lengths on an undirected graph (symmetric sparse adjacency whose values
// are edge lengths > 0), exactly symmetric; unreachable pairs are +inf.
arma::mat geodesic_distances(const arma::sp_mat& G);

// G with the components joined: between every pair of components the closest pair of points
// (Euclidean, columns of X) gets an edge, as scikit-learn's Isomap does since 1.0. Returns G
// unchanged when it is already connected; `count` receives the number of components found.
arma::sp_mat connect_components(const arma::mat& X, const arma::sp_mat& G, arma::uword& count);

}  // namespace drbench
