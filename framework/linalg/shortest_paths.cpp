#include "framework/linalg/shortest_paths.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

arma::mat geodesic_distances(const arma::sp_mat& G) {
  if (!G.is_square()) throw Error("geodesic_distances: adjacency is not square");
  const arma::uword n = G.n_rows;
  G.sync();
  const arma::uword* colp = G.col_ptrs;
  const arma::uword* rows = G.row_indices;
  const double* vals = G.values;
  for (arma::uword e = 0; e < G.n_nonzero; ++e)
    if (!(vals[e] > 0.0)) throw Error("geodesic_distances: edge lengths must be positive");

  const double inf = std::numeric_limits<double>::infinity();
  arma::mat D(n, n);
  using Item = std::pair<double, arma::uword>;
  std::vector<Item> heap;  // min-heap via std::greater, reused across sources
  heap.reserve(G.n_nonzero + n);
  const std::greater<Item> later;
  for (arma::uword s = 0; s < n; ++s) {
    double* dist = D.colptr(s);  // symmetric graph: column s holds distances from s
    std::fill(dist, dist + n, inf);
    dist[s] = 0.0;
    heap.assign(1, Item(0.0, s));
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), later);
      const auto [du, u] = heap.back();
      heap.pop_back();
      if (du > dist[u]) continue;  // stale entry: u was settled through a shorter path
      for (arma::uword e = colp[u]; e < colp[u + 1]; ++e) {
        const arma::uword v = rows[e];
        const double nd = du + vals[e];
        if (nd < dist[v]) {
          dist[v] = nd;
          heap.emplace_back(nd, v);
          std::push_heap(heap.begin(), heap.end(), later);
        }
      }
    }
  }
  // Rounding makes paths found from either end differ in the last bits; downstream kernels
  // (tau = -H S H / 2) expect an exactly symmetric matrix.
  return 0.5 * (D + D.t());
}

arma::uvec connected_components(const arma::sp_mat& G, arma::uword& count) {
  const arma::uword n = G.n_rows;
  G.sync();
  const arma::uword none = std::numeric_limits<arma::uword>::max();
  arma::uvec comp(n);
  comp.fill(none);
  count = 0;
  std::vector<arma::uword> stack;
  for (arma::uword s = 0; s < n; ++s) {
    if (comp(s) != none) continue;
    comp(s) = count;
    stack.assign(1, s);
    while (!stack.empty()) {
      const arma::uword u = stack.back();
      stack.pop_back();
      for (arma::uword e = G.col_ptrs[u]; e < G.col_ptrs[u + 1]; ++e) {
        const arma::uword v = G.row_indices[e];
        if (comp(v) == none) {
          comp(v) = count;
          stack.push_back(v);
        }
      }
    }
    ++count;
  }
  return comp;
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
