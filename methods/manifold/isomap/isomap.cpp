#include "methods/manifold/isomap/isomap.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/neighbours/dijkstra.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "framework/neighbours/graph_memory.hpp"

namespace drbench {

namespace {

// New points are mapped in blocks of this many, so the n x block distance and geodesic
// matrices of full Isomap stay bounded whatever the size of the test set.
constexpr arma::uword kTransformBlock = 512;
// Training points are triangulated in blocks of this many: the squared geodesics of a block,
// not of all n points, are the temporary.
constexpr arma::uword kPlaceBlock = 4096;

}  // namespace

void Isomap::fit(const FitInput& in) {
  X_ = in.X;
  const GeodesicGraphSpec& spec = s_.graph;
  const arma::uword n = X_.n_cols;
  const arma::uword m = s_.landmarks;
  if (m > n)
    throw MethodError(
        "isomap: landmarks=" + std::to_string(m) + " exceeds the " + std::to_string(n) +
        " training points (fix: landmarks <= " + std::to_string(n) + ", or 0 for full Isomap)");
  arma::sp_mat G;
  if (spec.knn) {
    GraphOptions go = fit_graph_options(s_.neighbour_graph, in.threads, in.rng);
    index_ = std::make_unique<NeighbourIndex>(X_, spec.neighbours, go);
    if (in.trace && index_->approximate()) in.trace->note("neighbour_graph", "approximate");
    G = connected_graph(X_, symmetric_adjacency(index_->self_graph(spec.neighbours)), spec,
                        "isomap", in.trace);
  } else {
    G = connected_graph(X_, epsilon_graph(X_, spec.epsilon), spec, "isomap", in.trace);
  }
  if (m == 0) {
    try {
      G2_ = geodesic_distances(G, true);
    } catch (const std::bad_alloc&) {
      // Full Isomap's n x n geodesics are the one allocation that grows with n^2: say so, and
      // how to avoid it, instead of a bare bad_alloc.
      throw MethodError("isomap: the " + std::to_string(n) + " x " + std::to_string(n) +
                        " geodesic matrix (" + std::to_string(8.0 * double(n) * n / 1e9) +
                        " GB) does not fit in memory (fix: landmarks: 1000, landmark Isomap in "
                        "O(n landmarks) memory)");
    }
    spectrum_.fit(G2_, in.dim, "isomap");
    return;
  }
  if (in.dim >= m)
    throw MethodError("isomap: dims=" + std::to_string(in.dim) + " needs more than " +
                      std::to_string(in.dim) + " landmarks (fix: landmarks > dims)");
  // Random landmarks (de Silva & Tenenbaum's first choice), ascending so that m = n is the
  // identity order.
  landmarks_ = arma::sort(in.rng.permutation(n).head(m));
  GL_ = shortest_paths_from(G, landmarks_, false, in.threads);
  G.reset();
  // Delta_m: the landmarks' squared geodesics among themselves.
  triangulation_.fit(arma::square(GL_.rows(landmarks_)), in.dim, "isomap (landmark MDS)");
  Y_.set_size(in.dim, n);
  for (arma::uword s = 0; s < n; s += kPlaceBlock) {
    const arma::uword e = std::min<arma::uword>(n, s + kPlaceBlock);
    Y_.cols(s, e - 1) = place(arma::square(GL_.rows(s, e - 1)).t());
  }
}

arma::mat Isomap::place(const arma::mat& D2) const {
  if (landmarks_.is_empty()) return spectrum_.extend(D2);
  return triangulation_.place(D2);  // D2 is landmarks x points
}

arma::mat Isomap::new_geodesics_sq(const arma::mat& Xb) const {
  const bool landmark = !landmarks_.is_empty();
  const arma::uword n = X_.n_cols, b = Xb.n_cols;
  const arma::uword rows = landmark ? landmarks_.n_elem : n;
  // Each new point's graph neighbours l and their lengths |x - x_l|.
  std::vector<std::vector<std::pair<arma::uword, double>>> nbrs(b);
  if (index_) {
    const arma::uword k = std::min<arma::uword>(s_.graph.neighbours, n);
    const NeighbourGraph g = index_->query(Xb, k);
    for (arma::uword q = 0; q < b; ++q)
      for (arma::uword j = 0; j < k; ++j) nbrs[q].emplace_back(g.index(j, q), g.dist(j, q));
  } else {
    const double eps2 = std::pow(s_.graph.epsilon, 2);
    const arma::mat E = sq_distances(X_, Xb);  // n x b
    for (arma::uword q = 0; q < b; ++q) {
      for (arma::uword i = 0; i < n; ++i)
        if (E(i, q) <= eps2) nbrs[q].emplace_back(i, std::sqrt(E(i, q)));
      // A new point outside every ball still gets a geodesic through its nearest training point.
      if (nbrs[q].empty()) {
        const arma::uword i = E.col(q).index_min();
        nbrs[q].emplace_back(i, std::sqrt(E(i, q)));
      }
    }
  }
  arma::mat D2(rows, b);
  for (arma::uword q = 0; q < b; ++q) {
    double* g = D2.colptr(q);
    std::fill(g, g + rows, arma::datum::inf);
    for (const auto& [l, el] : nbrs[q]) {
      if (landmark) {
        // GL_ row l: geodesics from training point l to every landmark.
        for (arma::uword j = 0; j < rows; ++j) g[j] = std::min(g[j], el + GL_(l, j));
      } else {
        const double* gl = G2_.colptr(l);
        for (arma::uword j = 0; j < rows; ++j) g[j] = std::min(g[j], el + std::sqrt(gl[j]));
      }
    }
    for (arma::uword j = 0; j < rows; ++j) g[j] *= g[j];
  }
  return D2;
}

arma::mat Isomap::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("isomap transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  const arma::uword dim = landmarks_.is_empty() ? spectrum_.embedding().n_rows : Y_.n_rows;
  arma::mat Y(dim, Xnew.n_cols);
  for (arma::uword s = 0; s < Xnew.n_cols; s += kTransformBlock) {
    const arma::uword e = std::min<arma::uword>(Xnew.n_cols, s + kTransformBlock);
    Y.cols(s, e - 1) = place(new_geodesics_sq(Xnew.cols(s, e - 1)));
  }
  return Y;
}

namespace {

// The parameters the contract and the budget both read.
struct IsomapKeys {
  // Added with the big-data paths: at their defaults earlier results' setting keys still resume.
  ChoiceKey graph = keywords::graph("knn");
  IntKey neighbours =
      keywords::neighbours(10, 1, 500, "the kNN graph, also of a new point (TPSLVM: 2..20)");
  ChoiceKey neighbour_graph = keywords::neighbour_graph("auto").with(keywords::unkeyed);
  IntKey landmarks = keywords::landmarks(0,
                                         "geodesics from this many random landmarks, the "
                                         "other points triangulated from them, O(n "
                                         "landmarks) memory")
                         .with(keywords::unkeyed);
};

MethodInfo isomap_info() {
  MethodInfo m = describe_method(
      "isomap", "manifold",
      "Isomap: classical MDS on kNN/epsilon-graph geodesics, Nystroem out-of-sample",
      "Tenenbaum, de Silva & Langford 2000, Science 290; Bengio et al. 2003 (NIPS 16); "
      "landmarks: de Silva & Tenenbaum 2003 (NIPS 15)");
  const auto [graph, neighbours, neighbour_graph, landmarks] = IsomapKeys{};
  const RealKey epsilon = keywords::epsilon(1.0);
  const ChoiceKey disconnected = keywords::disconnected("connect");
  m.params = {graph, neighbours, epsilon, disconnected, neighbour_graph, landmarks};
  m.max_dim = [landmarks](const DataShape& s, const ParamSet& p) {
    const arma::uword l = static_cast<arma::uword>(landmarks(p));
    const arma::uword pts = l > 0 ? std::min(l, s.n) : s.n;
    return pts > 0 ? pts - 1 : 0;
  };
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    IsomapSetting s;
    s.graph.knn = graph(p) == "knn";
    s.graph.neighbours = arma::uword(neighbours(p));
    s.graph.epsilon = epsilon(p);
    s.graph.connect = disconnected(p) == "connect";
    s.neighbour_graph = neighbour_graph(p);
    s.landmarks = arma::uword(landmarks(p));
    return std::make_unique<Isomap>(s);
  };
  return m;
}

Budget isomap_budget() {
  const IsomapKeys keys;
  TaskEstimate cost = [=](const TaskSize& z) {
    const double k = static_cast<double>(keys.neighbours(z.p));
    const double l = static_cast<double>(keys.landmarks(z.p));
    const double sources = l > 0 ? std::min(l, z.n) : z.n;
    return z.n * (z.n * z.d / 8.0 + sources * (2.0 * k * std::log2(z.n + 1) + 50.0));
  };
  TaskEstimate memory = [=](const TaskSize& z) {
    const double n = z.n, d = z.d;
    const arma::uword k = static_cast<arma::uword>(keys.neighbours(z.p));
    const double l = std::min(double(keys.landmarks(z.p)), n);
    double bytes =
        kProcessBaseBytes + 16.0 * n * d +
        (keys.graph(z.p) == "knn"
             ? neighbour_graph_memory(z.shape.n, z.shape.d, k, keys.neighbour_graph(z.p))
             : 8.0 * n * std::min(n, 4194304.0 / std::max(n, 1.0)) + 64.0 * n * double(k));
    if (l > 0) {
      // n x m geodesics and one n x block of them squared at a time; the landmark MDS (m x m).
      bytes += 8.0 * n * l + 2.0 * 8.0 * double(kPlaceBlock) * l + 4.0 * 8.0 * l * l;
    } else {
      // The n x n squared geodesics (symmetrised in place), Lanczos on products with them (a
      // second n x n matrix only where the dense solver takes small problems), and one block of
      // new points' distances and geodesics for the out-of-sample map.
      bytes += 8.0 * n * n * (z.shape.n > 800 ? 1.0 : 2.0) +
               lanczos_memory(z.shape.n, std::max<arma::uword>(2 * z.dim + 1, 20)) +
               2.0 * 8.0 * n * double(kTransformBlock);
    }
    return bytes + 8.0 * n * 2.0 * z.q;
  };
  return make_budget(std::move(cost), std::move(memory));
}

}  // namespace
DRBENCH_METHOD(isomap_info, isomap_budget())
}  // namespace drbench
