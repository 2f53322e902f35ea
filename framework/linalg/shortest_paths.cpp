#include "framework/linalg/shortest_paths.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/linalg/distances.hpp"

namespace drbench {

arma::mat geodesic_distances(const arma::sp_mat& G) {
  const arma::mat D = all_pairs_shortest_paths(G);
  // Paths found from either end differ in the last bits; tau = -H S H / 2 and the eigensolvers
  // downstream expect an exactly symmetric matrix.
  return 0.5 * (D + D.t());
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

}  // namespace drbench
