#include "methods/manifold/isomap/isomap.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/dijkstra.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

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

arma::uword bridge_components(arma::sp_mat& G, const arma::mat& X) {
  arma::uword added = 0;
  for (;;) {
    arma::uword nc = 0;
    const arma::uvec label = connected_components(G, nc);
    if (nc <= 1) return added;
    for (arma::uword c = 0; c < nc; ++c) {
      const arma::uvec in = arma::find(label == c), out = arma::find(label != c);
      const arma::mat D = sq_distances(X.cols(in), X.cols(out));
      const arma::uword k = D.index_min();
      const arma::uword a = in(k % in.n_elem), b = out(k / in.n_elem);
      const double len = std::max(std::sqrt(D(k)), 1e-300);
      G(a, b) = len;
      G(b, a) = len;
      ++added;
    }
  }
}

void Isomap::fit(const FitInput& in) {
  X_ = in.X;
  const bool knn = params_.str("graph") == "knn";
  const arma::uword k = static_cast<arma::uword>(params_.integer("neighbours"));
  arma::sp_mat G = knn ? knn_graph(in.X, k) : epsilon_graph(in.X, params_.real("epsilon"));
  arma::uword nc = 0;
  connected_components(G, nc);
  if (nc > 1) {
    if (params_.str("disconnected") == "error")
      throw MethodError(
          "isomap: the " +
          (knn ? "kNN graph with neighbours=" + std::to_string(k)
               : "epsilon graph with epsilon=" + to_string(ParamValue(params_.real("epsilon")))) +
          " has " + std::to_string(nc) + " connected components; increase " +
          (knn ? "neighbours" : "epsilon") + " or set disconnected: bridge");
    const arma::uword added = bridge_components(G, in.X);
    if (in.trace)
      in.trace->note("bridged_components",
                     std::to_string(nc) + " (" + std::to_string(added) + " edges added)");
  }
  G2_ = all_pairs_shortest_paths(G, true);
  spectrum_.fit(G2_, in.dim, "isomap");
}

arma::mat Isomap::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("isomap transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  const bool knn = params_.str("graph") == "knn";
  const arma::uword k = std::min<arma::uword>(params_.integer("neighbours"), X_.n_cols);
  const double eps2 = std::pow(params_.real("epsilon"), 2);
  const arma::uword n = X_.n_cols, m = Xnew.n_cols;
  const arma::mat E = sq_distances(X_, Xnew);  // n x m
  arma::mat D2new(n, m);
  std::vector<arma::uword> idx(n);
  for (arma::uword q = 0; q < m; ++q) {
    std::iota(idx.begin(), idx.end(), 0);
    std::vector<arma::uword> nb;
    auto closer = [&](arma::uword a, arma::uword b) {
      return E(a, q) < E(b, q) || (E(a, q) == E(b, q) && a < b);
    };
    if (knn) {
      std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), closer);
      nb.assign(idx.begin(), idx.begin() + k);
    } else {
      for (arma::uword i = 0; i < n; ++i)
        if (E(i, q) <= eps2) nb.push_back(i);
      // A new point outside every ball still gets a geodesic through its nearest training point.
      if (nb.empty()) nb.push_back(*std::min_element(idx.begin(), idx.end(), closer));
    }
    double* g = D2new.colptr(q);
    std::fill(g, g + n, arma::datum::inf);
    for (arma::uword l : nb) {
      const double el = std::sqrt(E(l, q));
      const double* gl = G2_.colptr(l);
      for (arma::uword j = 0; j < n; ++j) g[j] = std::min(g[j], el + std::sqrt(gl[j]));
    }
    for (arma::uword j = 0; j < n; ++j) g[j] *= g[j];
  }
  return spectrum_.extend(D2new);
}

namespace {

MethodInfo isomap_info() {
  MethodInfo m;
  m.name = "isomap";
  m.family = "manifold";
  m.summary = "Isomap: classical MDS on kNN/epsilon-graph geodesics, Nystroem out-of-sample";
  m.reference = "Tenenbaum, de Silva & Langford 2000, Science 290; Bengio et al. 2003 (NIPS 16)";
  m.params = {
      ParamSpec::choice("graph", "knn", {"knn", "epsilon"},
                        "neighbour graph: k nearest neighbours or an epsilon ball"),
      ParamSpec::integer("neighbours", 10, 1, 500,
                         "k of the kNN graph, also the neighbours of a new point (TPSLVM: 2..20)"),
      ParamSpec::real("epsilon", 1.0, 0.0, std::nullopt,
                      "radius of the epsilon graph, in input units (graph: epsilon)", true),
      ParamSpec::choice("disconnected", "error", {"error", "bridge"},
                        "a disconnected graph is an error, or is joined by the shortest edge "
                        "between components"),
  };
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 0 ? s.n - 1 : 0; };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword) {
    const double k = static_cast<double>(p.integer("neighbours"));
    return double(s.n) * s.n * (s.d + 2.0 * k * std::log2(double(s.n) + 1) + 50.0);
  };
  m.make = [](const ParamSet& p) { return std::make_unique<Isomap>(p); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(isomap_info)
}  // namespace drbench
