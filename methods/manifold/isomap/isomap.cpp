#include "methods/manifold/isomap/isomap.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/geodesic.hpp"

namespace drbench {

void Isomap::fit(const FitInput& in) {
  X_ = in.X;
  const arma::sp_mat G = geodesic_graph(in.X, GeodesicGraphSpec::from(params_), "isomap", in.trace);
  G2_ = geodesic_distances(G, true);
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
      keywords::graph("knn"),
      keywords::neighbours(10, 1, 500, "the kNN graph, also of a new point (TPSLVM: 2..20)"),
      keywords::epsilon(1.0),
      keywords::disconnected("connect"),
  };
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 0 ? s.n - 1 : 0; };
  m.cost = [](const DataShape& s, const ParamSet& p, arma::uword) {
    const double k = static_cast<double>(p.integer("neighbours"));
    return double(s.n) * s.n * (s.d + 2.0 * k * std::log2(double(s.n) + 1) + 50.0);
  };
  m.transform_reproduces_embedding = true;
  m.make = [](const ParamSet& p) { return std::make_unique<Isomap>(p); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(isomap_info)
}  // namespace drbench
