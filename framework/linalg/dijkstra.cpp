#include "framework/linalg/dijkstra.hpp"

#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"

namespace drbench {

arma::uvec connected_components(const arma::sp_mat& G, arma::uword& n_components) {
  const arma::uword n = G.n_cols;
  arma::uvec label(n);
  label.fill(n);  // n marks "not yet visited"
  n_components = 0;
  G.sync();  // element writes (bridge edges) may still sit in the cache, not the CSC arrays
  std::vector<arma::uword> stack;
  const arma::uword* cp = G.col_ptrs;
  const arma::uword* ri = G.row_indices;
  for (arma::uword s = 0; s < n; ++s) {
    if (label(s) != n) continue;
    label(s) = n_components;
    stack.push_back(s);
    while (!stack.empty()) {
      const arma::uword u = stack.back();
      stack.pop_back();
      for (arma::uword p = cp[u]; p < cp[u + 1]; ++p)
        if (label(ri[p]) == n) {
          label(ri[p]) = n_components;
          stack.push_back(ri[p]);
        }
    }
    ++n_components;
  }
  return label;
}

arma::mat all_pairs_shortest_paths(const arma::sp_mat& G, bool squared) {
  const arma::uword n = G.n_cols;
  if (G.n_rows != n) throw Error("all_pairs_shortest_paths: graph matrix is not square");
  G.sync();
  const arma::uword* cp = G.col_ptrs;
  const arma::uword* ri = G.row_indices;
  const double* val = G.values;
  for (arma::uword p = 0; p < G.n_nonzero; ++p)
    if (!(val[p] > 0)) throw Error("all_pairs_shortest_paths: edge lengths must be positive");

  arma::mat D(n, n);
  using Item = std::pair<double, arma::uword>;
  std::vector<Item> store;
  store.reserve(G.n_nonzero + n);
  // Lazy deletion: stale heap entries are skipped when popped, cheaper than decrease-key. The
  // heap is empty again after every source, so its storage is reused.
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap(std::greater<Item>(),
                                                                        std::move(store));
  std::vector<char> done(n);
  for (arma::uword s = 0; s < n; ++s) {
    double* dist = D.colptr(s);
    std::fill(dist, dist + n, arma::datum::inf);
    std::fill(done.begin(), done.end(), 0);
    dist[s] = 0.0;
    heap.emplace(0.0, s);
    while (!heap.empty()) {
      const auto [du, u] = heap.top();
      heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      for (arma::uword p = cp[u]; p < cp[u + 1]; ++p) {
        const arma::uword v = ri[p];
        const double nd = du + val[p];
        if (nd < dist[v]) {
          dist[v] = nd;
          heap.emplace(nd, v);
        }
      }
    }
    if (squared)
      for (arma::uword i = 0; i < n; ++i) dist[i] *= dist[i];
  }
  return D;
}

}  // namespace drbench
