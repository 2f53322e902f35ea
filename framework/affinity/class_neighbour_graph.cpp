#include "framework/affinity/class_neighbour_graph.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"

namespace drbench {

arma::sp_mat class_neighbour_graph(const arma::mat& X, const arma::uvec& labels,
                                   arma::uword n_classes, arma::uword k, ClassPairs which,
                                   const GraphOptions& opt) {
  const arma::uword n = X.n_cols;
  if (labels.n_elem != n) throw Error("internal: class graph: labels do not match the data");
  if (k < 1) throw MethodError("class neighbour graph: 'neighbours' must be at least 1");
  // Each undirected edge once (lower index first), so that mutual neighbours are not summed twice.
  WeightedEdges edges;
  edges.reserve(k * n);
  for (arma::uword c = 0; c < n_classes; ++c) {
    const arma::uvec members = arma::find(labels == c);
    if (members.is_empty()) continue;
    const arma::uvec ref_idx = which == ClassPairs::Same ? members : arma::find(labels != c);
    // Same class: a point is not its own neighbour, so one candidate fewer.
    const arma::uword avail = which == ClassPairs::Same ? ref_idx.n_elem - 1 : ref_idx.n_elem;
    const arma::uword kc = std::min(k, avail);
    if (kc == 0) continue;
    GraphOptions o = opt;
    o.seed = opt.seed + c;
    const arma::mat ref = X.cols(ref_idx);
    const NeighbourIndex index(ref, kc, o);
    const NeighbourGraph g =
        which == ClassPairs::Same ? index.self_graph(kc) : index.query(X.cols(members), kc);
    for (arma::uword q = 0; q < members.n_elem; ++q)
      for (arma::uword t = 0; t < kc; ++t) {
        const arma::uword i = members(q), j = ref_idx(g.index(t, q));
        edges.push_back({{std::min(i, j), std::max(i, j)}, g.dist(t, q) * g.dist(t, q)});
      }
  }
  return symmetric_from_edges(std::move(edges), n);
}

}  // namespace drbench
