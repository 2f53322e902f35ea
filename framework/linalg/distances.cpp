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
  // One pass over the product instead of a scaled copy, two broadcasts and a clamped copy: the
  // same operations in the same order ((-2 a'b + |a|^2) + |b|^2, then max(., 0); -2 x is exact),
  // so the same bits, without three n x m temporaries (their page faults cost as much as the
  // arithmetic at a few thousand points).
  arma::mat D = A.t() * B;
  const double* pa = a2.memptr();
  for (arma::uword j = 0; j < D.n_cols; ++j) {
    double* d = D.colptr(j);
    const double bj = b2[j];
    for (arma::uword i = 0; i < D.n_rows; ++i) {
      const double v = (-2.0 * d[i] + pa[i]) + bj;
      d[i] = v < 0.0 ? 0.0 : v;
    }
  }
  return D;
}

void sq_distances_into(const arma::mat& A, arma::mat& D) {
  // In D's own storage: an optimiser that calls this every iteration on thousands of points would
  // otherwise map and fault in fresh n x n pages. A'A is dispatched as before (a syrk in
  // Armadillo), and only its upper triangle is turned into distances and mirrored: the result
  // equals symmatu of the rectangular form, bit for bit.
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  D = A.t() * A;
  const arma::uword n = D.n_cols;
  const double* pa = a2.memptr();
  for (arma::uword j = 0; j < n; ++j) {
    double* d = D.colptr(j);
    const double aj = pa[j];
    for (arma::uword i = 0; i < j; ++i) {
      const double v = (-2.0 * d[i] + pa[i]) + aj;
      d[i] = v < 0.0 ? 0.0 : v;
    }
    d[j] = 0.0;
  }
  const arma::uword bs = 64;  // mirror by tiles, so neither side is walked along rows
  for (arma::uword jb = 0; jb < n; jb += bs)
    for (arma::uword ib = 0; ib <= jb; ib += bs)
      for (arma::uword j = jb; j < std::min(n, jb + bs); ++j)
        for (arma::uword i = ib; i < std::min(j, ib + bs); ++i) D(j, i) = D(i, j);
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
  // The k smallest (distance, index) pairs of one point, in that order (ties to the lower index),
  // by one scan in index order: a candidate enters only when strictly closer than the current
  // k-th, since an equal distance at a higher index ranks after it. Same neighbours as a
  // partial sort under that order, in O(n) per point instead of O(n log k) with index shuffling.
  std::vector<double> bd(k);
  std::vector<arma::uword> bi(k);
  auto select = [&](arma::uword i, auto dist) {
    arma::uword filled = 0;
    for (arma::uword a = 0; a < n; ++a) {
      if (a == i) continue;
      const double da = dist(a);
      if (filled == k && !(da < bd[k - 1])) continue;
      arma::uword pos = filled < k ? filled++ : k - 1;
      for (; pos > 0 && da < bd[pos - 1]; --pos) {
        bd[pos] = bd[pos - 1];
        bi[pos] = bi[pos - 1];
      }
      bd[pos] = da;
      bi[pos] = a;
    }
    for (arma::uword j = 0; j < k; ++j) nn(j, i) = bi[j];
  };
  // Row blocks keep the distance matrix at block x n instead of n x n for large n.
  const arma::uword block =
      std::max<arma::uword>(1, std::min<arma::uword>(n, (1u << 24) / std::max<arma::uword>(n, 1)));
  for (arma::uword s = 0; s < n; s += block) {
    const arma::uword e = std::min(n, s + block);
    if (s == 0 && e == n) {
      // One block holding every point: the symmetric form (a syrk, half the flops of the
      // product), whose column i equals its row i exactly, so each point reads a column.
      const arma::mat D = sq_distances(X);
      for (arma::uword i = 0; i < n; ++i) {
        const double* di = D.colptr(i);
        select(i, [di](arma::uword a) { return di[a]; });
      }
    } else {
      // Block x n, as before (the same bits), transposed once so that each point's distances are
      // contiguous here too.
      const arma::mat Dt = sq_distances(X.cols(s, e - 1), X).t();
      for (arma::uword i = s; i < e; ++i) {
        const double* di = Dt.colptr(i - s);
        select(i, [di](arma::uword a) { return di[a]; });
      }
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
