#include "framework/neighbours/graph_weights.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

namespace {

double sq_dist(const arma::mat& X, arma::uword i, arma::uword j) {
  return arma::accu(arma::square(X.col(i) - X.col(j)));
}

arma::sp_mat symmetric_from_edges(const std::vector<std::pair<arma::uword, arma::uword>>& edges,
                                  const std::vector<double>& w, arma::uword n) {
  arma::umat loc(2, 2 * edges.size());
  arma::vec val(2 * edges.size());
  arma::uword c = 0;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    loc(0, c) = edges[e].first;
    loc(1, c) = edges[e].second;
    val(c++) = w[e];
    loc(0, c) = edges[e].second;
    loc(1, c) = edges[e].first;
    val(c++) = w[e];
  }
  return arma::sp_mat(loc, val, n, n);
}

void check_width(double t, const char* what) {
  if (!(t > 0.0) || !std::isfinite(t))
    throw MethodError(std::string("heat-kernel width t is ") + std::to_string(t) + " (" + what +
                      "); all points coincide? set 'kernel_width' with width: absolute");
}

}  // namespace

double heat_kernel(double sq_dist, double t) {
  return std::max(std::exp(-sq_dist / t), 1e-300);
}

arma::sp_mat heat_edge_weights(const arma::sp_mat& dist_graph, double t) {
  check_width(t, "heat_edge_weights");
  arma::sp_mat W = dist_graph;
  for (auto it = W.begin(); it != W.end(); ++it) *it = heat_kernel((*it) * (*it), t);
  return W;
}

double mean_sq_edge_length(const arma::sp_mat& dist_graph) {
  if (dist_graph.n_nonzero == 0) return 0.0;
  return arma::accu(arma::square(arma::nonzeros(dist_graph))) /
         static_cast<double>(dist_graph.n_nonzero);
}

HeatGraph heat_knn_weights(const arma::mat& X, arma::uword k, const keywords::KernelWidth& width) {
  const arma::uword n = X.n_cols;
  const arma::umat nn = neighbour_graph(X, k, {GraphKind::exact}).index;
  std::vector<std::pair<arma::uword, arma::uword>> edges;
  edges.reserve(k * n);
  double mean_sq = 0.0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < k; ++j) {
      edges.emplace_back(std::min(i, nn(j, i)), std::max(i, nn(j, i)));
      mean_sq += sq_dist(X, i, nn(j, i));
    }
  mean_sq /= static_cast<double>(k * n);
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  HeatGraph g;
  g.t = width.heat_t(mean_sq);
  check_width(g.t, "mean squared kNN distance");
  std::vector<double> w(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e)
    w[e] = heat_kernel(sq_dist(X, edges[e].first, edges[e].second), g.t);
  g.W = symmetric_from_edges(edges, w, n);
  return g;
}

HeatGraph same_class_weights(const arma::mat& X, const arma::uvec& labels, ClassWeight kind,
                             const keywords::KernelWidth& width) {
  const arma::uword n = X.n_cols;
  if (labels.n_elem != n) throw MethodError("same_class_weights: one label per point needed");
  std::vector<std::pair<arma::uword, arma::uword>> edges;
  std::vector<double> d2;
  const arma::uvec classes = arma::unique(labels);
  for (arma::uword c : classes) {
    const arma::uvec idx = arma::find(labels == c);
    const arma::mat D = sq_distances(X.cols(idx));
    for (arma::uword a = 0; a < idx.n_elem; ++a)
      for (arma::uword b = a + 1; b < idx.n_elem; ++b) {
        edges.emplace_back(idx(a), idx(b));
        d2.push_back(D(a, b));
      }
  }
  HeatGraph g;
  std::vector<double> w(edges.size(), 1.0);
  if (kind == ClassWeight::Heat) {
    double mean_sq = 0.0;
    for (double v : d2) mean_sq += v;
    mean_sq = d2.empty() ? 0.0 : mean_sq / static_cast<double>(d2.size());
    g.t = width.heat_t(mean_sq);
    check_width(g.t, "mean squared same-class distance");
    for (std::size_t e = 0; e < edges.size(); ++e) w[e] = heat_kernel(d2[e], g.t);
  }
  g.W = symmetric_from_edges(edges, w, n);
  return g;
}

ClassQuadratics same_class_quadratics(const arma::mat& X, const arma::mat& Z,
                                      const arma::uvec& labels, ClassWeight kind,
                                      const keywords::KernelWidth& width) {
  const arma::uword n = X.n_cols;
  if (labels.n_elem != n || Z.n_cols != n)
    throw MethodError("same_class_quadratics: one label and one reduced column per point needed");
  const arma::uvec classes = arma::unique(labels);
  std::vector<arma::uvec> members;
  for (arma::uword c : classes) members.push_back(arma::find(labels == c));
  ClassQuadratics q;
  if (kind == ClassWeight::Heat) {
    // Sum over same-class pairs i < j of |x_i - x_j|^2 = n_c sum |x_i|^2 - |sum x_i|^2.
    double sum = 0.0, pairs = 0.0;
    for (const arma::uvec& idx : members) {
      const arma::mat Xc = X.cols(idx);
      const double nc = double(idx.n_elem);
      sum += nc * arma::accu(arma::square(Xc)) - arma::accu(arma::square(arma::sum(Xc, 1)));
      pairs += nc * (nc - 1) / 2;
    }
    q.t = width.heat_t(pairs > 0 ? std::max(sum / pairs, 0.0) : 0.0);
    check_width(q.t, "mean squared same-class distance");
  }
  const arma::uword r = Z.n_rows;
  arma::mat ZWZ(r, r, arma::fill::zeros);
  q.ZDZ.zeros(r, r);
  constexpr arma::uword kBlock = 256;
  for (const arma::uvec& idx : members) {
    const arma::mat Xc = X.cols(idx), Zc = Z.cols(idx);
    const arma::uword nc = idx.n_elem;
    for (arma::uword s = 0; s < nc; s += kBlock) {
      const arma::uword e = std::min(nc, s + kBlock);
      arma::mat W(nc, e - s, arma::fill::ones);
      if (kind == ClassWeight::Heat) {
        W = sq_distances(Xc, Xc.cols(s, e - 1));
        W.transform([&](double d2) { return heat_kernel(d2, q.t); });
      }
      for (arma::uword j = s; j < e; ++j) W(j, j - s) = 0.0;  // no self-edges
      ZWZ += Zc * W * Zc.cols(s, e - 1).t();
      arma::mat Zd = Zc.cols(s, e - 1);
      Zd.each_row() %= arma::sum(W, 0);
      q.ZDZ += Zd * Zc.cols(s, e - 1).t();
    }
  }
  q.ZDZ = 0.5 * (q.ZDZ + q.ZDZ.t());
  q.ZLZ = q.ZDZ - 0.5 * (ZWZ + ZWZ.t());
  return q;
}

arma::vec graph_degrees(const arma::sp_mat& W) {
  return arma::vec(arma::sum(W, 1));
}

arma::sp_mat graph_laplacian(const arma::sp_mat& W) {
  arma::sp_mat L = -W;
  L.diag() = graph_degrees(W);
  return L;
}

arma::mat laplacian_quadratic(const arma::mat& X, const arma::sp_mat& W) {
  // X L X^T = X D X^T - X W X^T; (W X^T) is a sparse-dense product, O(nnz * d).
  const arma::mat WXt = W * X.t();
  arma::mat Q = degree_quadratic(X, W) - X * WXt;
  return 0.5 * (Q + Q.t());
}

arma::mat degree_quadratic(const arma::mat& X, const arma::sp_mat& W) {
  const arma::vec deg = graph_degrees(W);
  arma::mat XD = X;
  XD.each_row() %= deg.t();
  return XD * X.t();
}

}  // namespace drbench
