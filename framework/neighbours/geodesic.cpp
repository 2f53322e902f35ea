#include "framework/neighbours/geodesic.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/params.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

GeodesicGraphSpec GeodesicGraphSpec::knn_graph(arma::uword neighbours, bool connect) {
  GeodesicGraphSpec s;
  s.neighbours = neighbours;
  s.connect = connect;
  return s;
}

arma::sp_mat epsilon_graph(const arma::mat& X, double eps) {
  const arma::uword n = X.n_cols;
  std::vector<arma::uword> r, c;
  std::vector<double> v;
  const double eps2 = eps * eps;
  const arma::uword block = std::max<arma::uword>(1, (1u << 22) / std::max<arma::uword>(n, 1));
  for (arma::uword s = 0; s < n; s += block) {
    const arma::uword e = std::min(n, s + block);
    const arma::mat D = sq_distances(X, X.cols(s, e - 1));  // n x (e - s)
    for (arma::uword j = s; j < e; ++j)
      for (arma::uword i = 0; i < n; ++i)
        if (i != j && D(i, j - s) <= eps2) {
          r.push_back(i);
          c.push_back(j);
          // Coincident points are neighbours at a tiny positive length (sparse storage drops 0).
          v.push_back(std::max(std::sqrt(D(i, j - s)), 1e-300));
        }
  }
  arma::umat loc(2, r.size());
  for (std::size_t k = 0; k < r.size(); ++k) {
    loc(0, k) = r[k];
    loc(1, k) = c[k];
  }
  return arma::sp_mat(loc, arma::vec(v), n, n);
}

arma::sp_mat connect_components(const arma::mat& X, const arma::sp_mat& G, arma::uword& count) {
  const arma::uvec comp = connected_components(G, count);
  if (count <= 1) return G;
  arma::sp_mat H = G;
  std::vector<arma::uvec> members(count);
  for (arma::uword c = 0; c < count; ++c) members[c] = arma::find(comp == c);
  for (arma::uword a = 0; a < count; ++a)
    for (arma::uword b = a + 1; b < count; ++b) {
      const arma::mat D = sq_distances(X.cols(members[a]), X.cols(members[b]));
      const arma::uword best = D.index_min();
      const arma::uword i = members[a](best % D.n_rows), j = members[b](best / D.n_rows);
      // A zero-length edge would vanish from the sparse matrix; duplicates get a tiny one.
      const double len = std::max(std::sqrt(D(best)), 1e-300);
      H(i, j) = len;
      H(j, i) = len;
    }
  return H;
}

arma::sp_mat geodesic_graph(const arma::mat& X, const GeodesicGraphSpec& spec,
                            const std::string& method, Trace* trace) {
  return connected_graph(
      X,
      spec.knn ? symmetric_adjacency(neighbour_graph(X, spec.neighbours, {GraphKind::exact}))
               : epsilon_graph(X, spec.epsilon),
      spec, method, trace);
}

arma::sp_mat connected_graph(const arma::mat& X, arma::sp_mat G, const GeodesicGraphSpec& spec,
                             const std::string& method, Trace* trace) {
  arma::uword parts = 0;
  if (spec.connect) {
    G = connect_components(X, G, parts);
    if (parts > 1 && trace) trace->note("graph_components_joined", std::to_string(parts));
    return G;
  }
  connected_components(G, parts);
  if (parts > 1)
    throw MethodError(method + ": the " +
                      (spec.knn
                           ? "kNN graph with neighbours=" + std::to_string(spec.neighbours)
                           : "epsilon graph with epsilon=" + to_string(ParamValue(spec.epsilon))) +
                      " has " + std::to_string(parts) +
                      " connected components, so geodesic distances are infinite; raise '" +
                      (spec.knn ? "neighbours" : "epsilon") + "' or set 'disconnected: connect'");
  return G;
}

arma::mat geodesic_distances(const arma::sp_mat& G, bool squared) {
  arma::mat D = all_pairs_shortest_paths(G);
  // Paths found from either end differ in the last bits; tau = -H S H / 2 and the eigensolvers
  // downstream expect an exactly symmetric matrix. In place: a second n x n matrix (D + D') would
  // double the peak memory of Isomap.
  const arma::uword n = D.n_rows;
  for (arma::uword j = 0; j < n; ++j)
    for (arma::uword i = 0; i < j; ++i) {
      const double a = 0.5 * (D(i, j) + D(j, i));
      D(i, j) = squared ? a * a : a;
      D(j, i) = D(i, j);
    }
  if (squared) D.diag() = arma::square(D.diag());
  return D;
}

arma::mat isometric_kernel(const arma::mat& X, const GeodesicGraphSpec& spec,
                           const std::string& method, Trace* trace, bool squared) {
  arma::mat S = geodesic_distances(geodesic_graph(X, spec, method, trace), squared);
  double_centre(S);
  return S;
}

}  // namespace drbench
