#pragma once
// Exact k-nearest-neighbour graphs of sparse points (one column per point, Armadillo CSC), without
// a dense copy: the methods that need only a neighbour graph of their input run on sparse data
// through it (FitInput::Xs, MethodInfo::sparse_input).
//
// Each query is answered from an inverted index (the points of each feature): the dot products of
// the query with every reference point cost the query's stored entries times the points sharing
// their features, and |x|^2 + |q|^2 - 2 x.q bounds every squared distance to within a proven
// rounding margin. The candidates that margin cannot rule out are ranked by the squared distance
// summed directly over the union of their stored features in feature order, which is bit for bit
// the dense path's sum (a feature absent from both adds an exact zero), ties going to the lower
// index: the graph is that of neighbour_graph(arma::mat(X), k) with neighbour_graph: exact, indices
// and distances alike. Memory beyond the points: the index (a transposed copy, 16 bytes a stored
// entry), and per thread one dot product and one bound per reference point.
//
// Cosine: the columns scaled to unit length first (zero columns stay zero), then Euclidean, the
// evaluation's rule (framework/eval/knn.hpp); the distances are those of the unit vectors, the
// norms summed in feature order (the dense unit_columns agrees to rounding).
#include <armadillo>
#include <string>

#include "framework/neighbours/neighbour_graph.hpp"

namespace drbench {

enum class SparseMetric { euclidean, cosine };

struct SparseKnnOptions {
  SparseMetric metric = SparseMetric::euclidean;
  // Queries split into blocks over this many threads; the graph is the same for any count.
  unsigned threads = 1;
};

class SparseNeighbourIndex {
 public:
  // Euclidean: `ref` is read in place and must outlive the index; cosine keeps a scaled copy.
  SparseNeighbourIndex(const arma::sp_mat& ref, const SparseKnnOptions& opt = {});
  // Each reference point's k nearest other reference points. Throws MethodError unless
  // 1 <= k <= n - 1.
  NeighbourGraph self_graph(arma::uword k) const;
  // Each column of Q's k nearest reference points. Throws MethodError unless 1 <= k <= n and Q
  // has the reference points' features.
  NeighbourGraph query(const arma::sp_mat& Q, arma::uword k) const;
  arma::uword n() const { return ref_->n_cols; }

 private:
  NeighbourGraph search(const arma::sp_mat& Q, arma::uword k, bool self) const;
  SparseKnnOptions opt_;
  arma::sp_mat scaled_;      // cosine: the unit-length columns
  const arma::sp_mat* ref_;  // the points searched (scaled_ under cosine)
  arma::sp_mat by_feature_;  // ref_ transposed: column r lists the points that store feature r
  arma::vec sq_norm_;        // |x_j|^2, summed as the exact distances are
  arma::uword widest_ = 0;   // most stored entries of any reference point
};

// The squared distance between column a of A and column b of B (same features), summed over the
// union of their stored features in feature order: the dense loop's bits.
double sparse_sq_dist(const arma::sp_mat& A, arma::uword a, const arma::sp_mat& B, arma::uword b);

// NeighbourGraph of each column's k nearest other columns (SparseNeighbourIndex(X).self_graph).
NeighbourGraph sparse_neighbour_graph(const arma::sp_mat& X, arma::uword k,
                                      const SparseKnnOptions& opt = {});

// The columns scaled to unit Euclidean length, each entry divided by its column's norm (summed in
// feature order); zero columns stay zero. Equal to the dense unit_columns
// (framework/linalg/distances.hpp) to rounding: that one sums the norms as Armadillo does.
arma::sp_mat unit_columns(const arma::sp_mat& X);

// Bytes the search holds beyond the points for n reference points with nnz stored entries and
// `threads` threads: the inverted index (and the scaled copy under cosine), the per-thread dot
// products and bounds, and the k x n graph it returns.
double sparse_knn_bytes(arma::uword n, double nnz, arma::uword k, unsigned threads,
                        SparseMetric metric = SparseMetric::euclidean);

}  // namespace drbench
