#include "framework/linalg/distances.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "framework/core/error.hpp"

namespace drbench {

arma::mat sq_distances(const arma::mat& A, const arma::mat& B) {
  if (A.n_rows != B.n_rows) throw Error("sq_distances: dimension mismatch");
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  const arma::rowvec b2 = arma::sum(arma::square(B), 0);
  arma::mat D = -2.0 * (A.t() * B);
  D.each_col() += a2.t();
  D.each_row() += b2;
  return arma::clamp(D, 0.0, arma::datum::inf);
}

void sq_distances_into(const arma::mat& A, arma::mat& D) {
  // The same operations as sq_distances(A, A), in D's own storage: an optimiser that calls this
  // every iteration on thousands of points would otherwise map and fault in fresh n x n pages.
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  D = -2.0 * (A.t() * A);
  D.each_col() += a2.t();
  D.each_row() += a2;
  D.clamp(0.0, arma::datum::inf);
  D.diag().zeros();
  for (arma::uword j = 0; j < D.n_cols; ++j)
    for (arma::uword i = j + 1; i < D.n_rows; ++i) D(i, j) = D(j, i);
}

arma::mat sq_distances(const arma::mat& A) {
  arma::mat D;
  sq_distances_into(A, D);
  return D;
}

arma::umat knn_graph_indices(const arma::mat& X, arma::uword k) {
  const arma::uword n = X.n_cols;
  if (k == 0 || k >= n)
    throw MethodError("neighbour count k=" + std::to_string(k) + " must be in 1.." +
                      std::to_string(n > 0 ? n - 1 : 0) + " for " + std::to_string(n) + " points");
  arma::umat nn(k, n);
  std::vector<arma::uword> idx(n);
  // Row blocks keep the distance matrix at block x n instead of n x n for large n.
  const arma::uword block =
      std::max<arma::uword>(1, std::min<arma::uword>(n, (1u << 24) / std::max<arma::uword>(n, 1)));
  for (arma::uword s = 0; s < n; s += block) {
    const arma::uword e = std::min(n, s + block);
    // One block holding every point: the symmetric form (a syrk, half the flops of the product).
    const arma::mat D = s == 0 && e == n ? sq_distances(X) : sq_distances(X.cols(s, e - 1), X);
    for (arma::uword i = s; i < e; ++i) {
      std::iota(idx.begin(), idx.end(), 0);
      auto less = [&](arma::uword a, arma::uword b) {
        if (a == i) return false;
        if (b == i) return true;
        const double da = D(i - s, a), db = D(i - s, b);
        return da < db || (da == db && a < b);
      };
      std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), less);
      for (arma::uword j = 0; j < k; ++j) nn(j, i) = idx[j];
    }
  }
  return nn;
}

QueryNeighbours query_neighbours(const arma::mat& X, const arma::mat& Q, arma::uword k) {
  const arma::uword n = X.n_cols, m = Q.n_cols;
  if (k == 0 || k > n)
    throw MethodError("neighbour count k=" + std::to_string(k) + " must be in 1.." +
                      std::to_string(n) + " for " + std::to_string(n) + " training points");
  const arma::mat E = sq_distances(X, Q);
  QueryNeighbours out{arma::umat(k, m), arma::mat(k, m), std::vector<bool>(m)};
  std::vector<arma::uword> idx(n);
  for (arma::uword q = 0; q < m; ++q) {
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](arma::uword a, arma::uword b) {
      return E(a, q) < E(b, q) || (E(a, q) == E(b, q) && a < b);
    });
    for (arma::uword j = 0; j < k; ++j) {
      out.index(j, q) = idx[j];
      out.sq_dist(j, q) = E(idx[j], q);
    }
    out.duplicate[q] = arma::accu(arma::square(X.col(idx[0]) - Q.col(q))) == 0.0;
  }
  return out;
}

arma::sp_mat knn_graph(const arma::mat& X, arma::uword k) {
  const arma::uword n = X.n_cols;
  const arma::umat nn = knn_graph_indices(X, k);
  // Each undirected edge once (lower index first), so mutual neighbours are not summed twice by
  // the batch constructor.
  std::vector<std::pair<arma::uword, arma::uword>> edges;
  edges.reserve(k * n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < k; ++j)
      edges.emplace_back(std::min(i, nn(j, i)), std::max(i, nn(j, i)));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  arma::umat loc(2, 2 * edges.size());
  arma::vec val(2 * edges.size());
  arma::uword c = 0;
  for (const auto& [a, b] : edges) {
    // Duplicate points are neighbours at distance 0, which a sparse matrix cannot store: keep the
    // edge with the smallest positive length instead of silently dropping it.
    const double w = std::max(arma::norm(X.col(a) - X.col(b)), std::numeric_limits<double>::min());
    loc(0, c) = a;
    loc(1, c) = b;
    val(c++) = w;
    loc(0, c) = b;
    loc(1, c) = a;
    val(c++) = w;
  }
  return arma::sp_mat(loc, val, n, n);
}

arma::mat unit_columns(const arma::mat& X) {
  arma::rowvec norms = arma::sqrt(arma::sum(arma::square(X), 0));
  norms.replace(0.0, 1.0);
  arma::mat U = X;
  U.each_row() /= norms;
  return U;
}

void double_centre(arma::mat& S) {
  const arma::vec r = arma::mean(S, 1);
  const double g = arma::mean(r);
  S.each_col() -= r;
  S.each_row() -= r.t();
  S += g;
  S *= -0.5;
}

}  // namespace drbench
