#include "framework/neighbours/dijkstra.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/support/parallel.hpp"

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

namespace {

// Checked CSC view of a graph whose values are edge lengths.
struct Csc {
  const arma::uword* cp;
  const arma::uword* ri;
  const double* val;
};

Csc checked_csc(const arma::sp_mat& G, const char* who) {
  if (G.n_rows != G.n_cols) throw Error(std::string(who) + ": graph matrix is not square");
  G.sync();
  for (arma::uword p = 0; p < G.n_nonzero; ++p)
    if (!(G.values[p] > 0)) throw Error(std::string(who) + ": edge lengths must be positive");
  return {G.col_ptrs, G.row_indices, G.values};
}

using Item = std::pair<double, arma::uword>;
using Heap = std::priority_queue<Item, std::vector<Item>, std::greater<Item>>;

Heap make_heap_for(const arma::sp_mat& G) {
  std::vector<Item> store;
  store.reserve(G.n_nonzero + G.n_cols);
  return Heap(std::greater<Item>(), std::move(store));
}

// Distances from s into dist[0..n). Lazy deletion: stale heap entries are skipped when popped,
// cheaper than decrease-key. The heap is empty again afterwards, so its storage is reused.
void dijkstra_from(const Csc& g, arma::uword n, arma::uword s, double* dist, Heap& heap,
                   std::vector<char>& done, bool squared) {
  std::fill(dist, dist + n, arma::datum::inf);
  std::fill(done.begin(), done.end(), 0);
  dist[s] = 0.0;
  heap.emplace(0.0, s);
  while (!heap.empty()) {
    const auto [du, u] = heap.top();
    heap.pop();
    if (done[u]) continue;
    done[u] = 1;
    for (arma::uword p = g.cp[u]; p < g.cp[u + 1]; ++p) {
      const arma::uword v = g.ri[p];
      const double nd = du + g.val[p];
      if (nd < dist[v]) {
        dist[v] = nd;
        heap.emplace(nd, v);
      }
    }
  }
  if (squared)
    for (arma::uword i = 0; i < n; ++i) dist[i] *= dist[i];
}

}  // namespace

arma::mat all_pairs_shortest_paths(const arma::sp_mat& G, bool squared) {
  const arma::uword n = G.n_cols;
  const Csc g = checked_csc(G, "all_pairs_shortest_paths");
  arma::mat D(n, n);
  Heap heap = make_heap_for(G);
  std::vector<char> done(n);
  for (arma::uword s = 0; s < n; ++s) dijkstra_from(g, n, s, D.colptr(s), heap, done, squared);
  return D;
}

arma::mat shortest_paths_from(const arma::sp_mat& G, const arma::uvec& sources, bool squared,
                              unsigned threads) {
  const arma::uword n = G.n_cols;
  const Csc g = checked_csc(G, "shortest_paths_from");
  for (arma::uword s : sources)
    if (s >= n)
      throw Error("shortest_paths_from: source " + std::to_string(s) + " of a " +
                  std::to_string(n) + "-node graph");
  arma::mat D(n, sources.n_elem);
  // Each source writes its own column: the same bits for any thread count.
  parallel_blocks(sources.n_elem, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    Heap heap = make_heap_for(G);
    std::vector<char> done(n);
    for (std::size_t j = b; j < e; ++j)
      dijkstra_from(g, n, sources(j), D.colptr(j), heap, done, squared);
  });
  return D;
}

}  // namespace drbench
