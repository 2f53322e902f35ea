#include "framework/neighbours/sparse_knn.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

namespace {

arma::uword widest_column(const arma::sp_mat& X) {
  arma::uword w = 0;
  for (arma::uword c = 0; c < X.n_cols; ++c) w = std::max(w, X.col_ptrs[c + 1] - X.col_ptrs[c]);
  return w;
}

// Column c's sum of squares over its stored entries in feature order: the dense loop's sum, the
// absent features adding exact zeros.
double column_sq(const arma::sp_mat& X, arma::uword c) {
  double s = 0;
  for (arma::uword p = X.col_ptrs[c]; p < X.col_ptrs[c + 1]; ++p) s += X.values[p] * X.values[p];
  return s;
}

// The squared distance between column a of A and column b of B summed over the union of their
// stored features in feature order, as sq_dist sums the dense columns ((x - 0)^2 is x^2 exactly,
// and a feature stored in neither adds +0, which changes no sum).
double merged_sq_dist(const arma::sp_mat& A, arma::uword a, const arma::sp_mat& B, arma::uword b) {
  arma::uword pa = A.col_ptrs[a], pb = B.col_ptrs[b];
  const arma::uword ea = A.col_ptrs[a + 1], eb = B.col_ptrs[b + 1];
  double s = 0;
  while (pa < ea || pb < eb) {
    double d;
    if (pb == eb || (pa < ea && A.row_indices[pa] < B.row_indices[pb]))
      d = A.values[pa++];
    else if (pa == ea || B.row_indices[pb] < A.row_indices[pa])
      d = B.values[pb++];
    else
      d = A.values[pa++] - B.values[pb++];
    s += d * d;
  }
  return s;
}

void check_k(arma::uword k, arma::uword avail, arma::uword n, const char* what) {
  if (k == 0 || k > avail)
    throw MethodError("neighbour graph: " + std::to_string(k) + " neighbours " + what +
                      " need 1.." + std::to_string(avail) + " of " + std::to_string(n) +
                      " points (fix: lower neighbours)");
}

// One thread's buffers: a dot product, and a lower and an upper bound on the exact squared
// distance, per reference point.
struct Scratch {
  std::vector<double> dot, lo, hi;
  std::vector<std::pair<double, arma::uword>> cand;
  explicit Scratch(arma::uword n) : dot(n), lo(n), hi(n) {}
};

}  // namespace

arma::sp_mat unit_columns(const arma::sp_mat& X) {
  X.sync();
  arma::sp_mat U(X);
  U.sync();
  // Scaled entry by entry (not by a diagonal product, whose bits need not be a division's).
  for (arma::uword c = 0; c < U.n_cols; ++c) {
    const double norm = std::sqrt(column_sq(U, c));
    if (norm > 0)
      for (arma::uword p = U.col_ptrs[c]; p < U.col_ptrs[c + 1]; ++p)
        arma::access::rw(U.values[p]) = U.values[p] / norm;
  }
  return U;
}

double sparse_sq_dist(const arma::sp_mat& A, arma::uword a, const arma::sp_mat& B, arma::uword b) {
  return merged_sq_dist(A, a, B, b);
}

SparseNeighbourIndex::SparseNeighbourIndex(const arma::sp_mat& ref, const SparseKnnOptions& opt)
    : opt_(opt), ref_(&ref) {
  ref.sync();
  if (opt.metric == SparseMetric::cosine) {
    scaled_ = unit_columns(ref);
    scaled_.sync();
    ref_ = &scaled_;
  }
  by_feature_ = ref_->t();
  by_feature_.sync();
  sq_norm_.set_size(ref_->n_cols);
  for (arma::uword j = 0; j < ref_->n_cols; ++j) sq_norm_(j) = column_sq(*ref_, j);
  widest_ = widest_column(*ref_);
}

NeighbourGraph SparseNeighbourIndex::self_graph(arma::uword k) const {
  const arma::uword n = ref_->n_cols;
  check_k(k, n > 0 ? n - 1 : 0, n, "of each point");
  return search(*ref_, k, true);
}

NeighbourGraph SparseNeighbourIndex::query(const arma::sp_mat& Q, arma::uword k) const {
  if (Q.n_rows != ref_->n_rows)
    throw MethodError("neighbour graph: new points have " + std::to_string(Q.n_rows) +
                      " features, the reference points " + std::to_string(ref_->n_rows));
  check_k(k, ref_->n_cols, ref_->n_cols, "of a new point");
  Q.sync();
  if (opt_.metric == SparseMetric::cosine) {
    const arma::sp_mat U = unit_columns(Q);
    U.sync();
    return search(U, k, false);
  }
  return search(Q, k, false);
}

// Query column i of Q: every reference point's |x|^2 + |q|^2 - 2 x.q with its rounding margin,
// the k-th smallest upper bound as the cut, and the points whose lower bound passes it ranked by
// the exact sum. The margin covers the expansion's rounding (sums of at most `widest` products,
// Higham's gamma_m) and the exact sum's own (at most twice as many terms), with room to spare:
// a point among the k nearest by the exact sum, ties included, is never cut.
NeighbourGraph SparseNeighbourIndex::search(const arma::sp_mat& Q, arma::uword k, bool self) const {
  const arma::sp_mat& X = *ref_;
  const arma::uword n = X.n_cols, m = Q.n_cols;
  const double margin = (8.0 * double(std::max(widest_, widest_column(Q))) + 16.0) *
                        std::numeric_limits<double>::epsilon();
  NeighbourGraph g;
  g.index.set_size(k, m);
  g.dist.set_size(k, m);
  parallel_blocks(m, opt_.threads, [&](std::size_t s, std::size_t e, std::size_t) {
    Scratch w(n);
    for (std::size_t i = s; i < e; ++i) {
      std::fill(w.dot.begin(), w.dot.end(), 0.0);
      for (arma::uword p = Q.col_ptrs[i]; p < Q.col_ptrs[i + 1]; ++p) {
        const arma::uword r = Q.row_indices[p];
        const double v = Q.values[p];
        for (arma::uword t = by_feature_.col_ptrs[r]; t < by_feature_.col_ptrs[r + 1]; ++t)
          w.dot[by_feature_.row_indices[t]] += v * by_feature_.values[t];
      }
      const double qn = column_sq(Q, i);
      for (arma::uword j = 0; j < n; ++j) {
        const double size = sq_norm_[j] + qn, approx = size - 2.0 * w.dot[j];
        w.lo[j] = approx - margin * size;
        w.hi[j] = approx + margin * size;
      }
      if (self) w.lo[i] = w.hi[i] = std::numeric_limits<double>::infinity();
      std::vector<double>& cut = w.dot;  // its dot products are spent
      std::copy(w.hi.begin(), w.hi.end(), cut.begin());
      std::nth_element(cut.begin(), cut.begin() + std::ptrdiff_t(k - 1), cut.end());
      const double bound = cut[k - 1];
      w.cand.clear();
      for (arma::uword j = 0; j < n; ++j)
        if (w.lo[j] <= bound) w.cand.emplace_back(merged_sq_dist(X, j, Q, i), j);
      std::sort(w.cand.begin(), w.cand.end());
      for (arma::uword j = 0; j < k; ++j) {
        g.index(j, i) = w.cand[j].second;
        g.dist(j, i) = std::sqrt(w.cand[j].first);
      }
    }
  });
  return g;
}

NeighbourGraph sparse_neighbour_graph(const arma::sp_mat& X, arma::uword k,
                                      const SparseKnnOptions& opt) {
  return SparseNeighbourIndex(X, opt).self_graph(k);
}

double sparse_knn_bytes(arma::uword n, double nnz, arma::uword k, unsigned threads,
                        SparseMetric metric) {
  const double nn = double(n);
  const double index = 16.0 * nnz + 8.0 * nn;  // the transposed copy and the squared norms
  const double scaled = metric == SparseMetric::cosine ? 16.0 * nnz + 8.0 * nn : 0.0;
  // Per thread: dot products, both bounds, and candidates (a few k, 16 bytes each).
  const double scratch = double(std::max(1u, threads)) * (24.0 * nn + 64.0 * double(k));
  return index + scaled + scratch + 16.0 * double(k) * nn;
}

}  // namespace drbench
