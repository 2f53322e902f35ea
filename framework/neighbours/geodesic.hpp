#pragma once
// The one geodesic pipeline of drbench, shared by Isomap and the isometric projections (IP,
// IP+SR, OIP, SOIP): a neighbour graph (kNN or epsilon ball, Euclidean edge lengths), one repair
// for a disconnected graph, all-pairs shortest paths (Dijkstra, dijkstra.hpp) and the double
// centring tau(S) = -H S H / 2 that turns squared distances into a Gram matrix.
#include <armadillo>
#include <string>

#include "framework/core/trace.hpp"
#include "framework/neighbours/dijkstra.hpp"

namespace drbench {

// The graph settings, as a method reads them from the vocabulary's `graph`, `neighbours`,
// `epsilon` and `disconnected` (keywords.hpp); a method without `graph` builds kNN graphs.
struct GeodesicGraphSpec {
  bool knn = true;
  arma::uword neighbours = 5;
  double epsilon = 1.0;
  bool connect = true;  // disconnected: connect (else error)
  static GeodesicGraphSpec knn_graph(arma::uword neighbours, bool connect);
};

// Symmetric sparse graph joining points closer than eps (Euclidean lengths as values).
arma::sp_mat epsilon_graph(const arma::mat& X, double eps);

// G with the components joined: between every pair of components the closest pair of points
// (Euclidean, columns of X) gets an edge, as scikit-learn's Isomap does since 1.0. Returns G
// unchanged when it is already connected; `count` receives the number of components found.
arma::sp_mat connect_components(const arma::mat& X, const arma::sp_mat& G, arma::uword& count);

// The neighbour graph of the columns of X, connected: a disconnected graph is joined by
// connect_components (the number of components noted in the trace as graph_components_joined)
// or, with spec.connect false, a MethodError naming `method`, the graph and the fix.
arma::sp_mat geodesic_graph(const arma::mat& X, const GeodesicGraphSpec& spec,
                            const std::string& method, Trace* trace);

// G (a neighbour graph of the columns of X) made connected as geodesic_graph does: for a method
// that builds its kNN graph on the shared neighbour graph (neighbour_graph.hpp) itself.
arma::sp_mat connected_graph(const arma::mat& X, arma::sp_mat G, const GeodesicGraphSpec& spec,
                             const std::string& method, Trace* trace);

// All-pairs shortest path lengths on an undirected graph (symmetric sparse adjacency whose values
// are edge lengths > 0), exactly symmetric; unreachable pairs are +inf. Squared when `squared`.
arma::mat geodesic_distances(const arma::sp_mat& G, bool squared = false);

// tau(D_G) (n x n) of the isometric projections (Cai, He & Han 2007; Zheng et al. 2012): the
// double-centred squared geodesics of geodesic_graph, or with `squared` false the geodesic
// distances themselves (OIP's Algorithm 1 read literally, W(i,j) = d_G(i,j)).
arma::mat isometric_kernel(const arma::mat& X, const GeodesicGraphSpec& spec,
                           const std::string& method, Trace* trace, bool squared = true);

}  // namespace drbench
