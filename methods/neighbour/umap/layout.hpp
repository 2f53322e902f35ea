#pragma once
// UMAP's layout (McInnes, Healy & Melville 2018, section 3.2 and appendix C; umap-learn 0.5's
// optimize_layout_euclidean): stochastic gradient descent on the fuzzy cross-entropy between the
// graph's memberships w_ij and q_ij = 1 / (1 + a d_ij^(2b)) in the embedding. Every epoch an edge
// is sampled in proportion to its weight (once per epochs_per_sample = max w / w epochs) and moves
// both ends along -d(-log q)/dy; each sample draws negative_sample_rate uniformly random points
// that push the head away along -d(-log(1 - q))/dy. Every coordinate of a step is clipped to
// [-4, 4]; the learning rate falls linearly from its initial value towards 0 over the epochs.
// Unlike umap-learn, the steps of one sample (its attraction and its negatives) are all taken at
// the positions the sample starts from and applied together: see sample_edge in layout.cpp.
#include <armadillo>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "framework/core/trace.hpp"

namespace drbench::umap {

// x^y for one fixed y, the layout's powers of squared distances: x = 2^e m with m in [1, 2) in
// segments of 1/128, x^y = (2^e)^y (table) m_j^y (table) (1 + d)^y with d = m / m_j - 1 < 1/128
// by a cubic Taylor polynomial. Relative error below |y (y - 1) (y - 2) (y - 3)| / 24 x 128^-4
// (2e-10 at the default b - 1 = -0.105, 4e-9 at most for -1 <= y <= 2; tested against std::pow),
// more accurate than the single-precision powf it replaced, with no division and no call: the
// layout spent a third of its time in powf. Only double arithmetic on tables built from std::pow,
// so the same bits for the same y. Outside 2^-64 <= x < 2^64 (and for non-finite x) it is std::pow.
class PowTable {
 public:
  explicit PowTable(double y);
  double operator()(double x) const {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const auto e = std::int64_t(bits >> 52) - 1023;  // the sign bit makes x < 0 fall outside
    if (e < -kExp || e >= kExp) return std::pow(x, y_);
    const auto j = (bits >> (52 - kSegmentBits)) & (kSegments - 1);
    const double m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    const double d = m * inverse_[j] - 1.0;
    return scale_[std::size_t(e + kExp)] * base_[j] * (1.0 + d * (c1_ + d * (c2_ + d * c3_)));
  }

 private:
  static constexpr int kExp = 64, kSegmentBits = 7, kSegments = 1 << kSegmentBits;
  double y_, c1_, c2_, c3_;  // y and the Taylor coefficients of (1 + d)^y
  std::array<double, 2 * kExp> scale_;
  std::array<double, kSegments> base_, inverse_;
};

// For d2 = |y_i - y_j|^2: the attractive term -log q = log(1 + a d2^b) has gradient
// attract_coeff(d2) (y_i - y_j) with respect to y_i.
inline double attract_coeff(double d2, double a, double b) {
  if (d2 <= 0.0) return 0.0;
  const double p = std::pow(d2, b - 1.0);
  return 2.0 * a * b * p / (1.0 + a * p * d2);
}
// The repulsive term -log(1 - q) = log(1 + a d2^b) - log(a d2^b) has gradient
// repulse_coeff(d2, eps = 0) (y_i - y_j) (a negative coefficient: it pushes apart). The layout
// uses eps = 0.001 as umap-learn does, which bounds the push at coincident points.
inline double repulse_coeff(double d2, double a, double b, double eps) {
  return -2.0 * b / ((eps + d2) * (1.0 + a * std::pow(d2, b)));
}

// The fuzzy cross-entropy over ordered pairs i != j, sum w_ij (-log q_ij) + (1 - w_ij)
// (-log(1 - q_ij)), of the embedding Y (dim x n) for the symmetric memberships W (n x n), and its
// gradient with respect to Y when `grad` is non-null. O(n^2): the reference the sampled layout
// estimates, for tests and small graphs.
double cross_entropy(const arma::mat& Y, const arma::sp_mat& W, double a, double b,
                     arma::mat* grad);

// The edges the layout samples: the graph's nonzeros above max w / epochs (umap-learn drops the
// rest, which would be sampled less than once), in column order, each with its sampling period.
struct Edges {
  arma::uvec head, tail;
  arma::vec epochs_per_sample;  // max w / w_e
  arma::uword n_heads = 0;      // rows of the head embedding
};
// Edges of a square graph (head = column, tail = row), or of a bipartite one whose columns are
// new points and rows training points (transform).
Edges edges_of(const arma::sp_mat& G, int epochs);

struct LayoutOptions {
  int epochs = 200;
  double a = 1.577, b = 0.895;
  double learning_rate = 1.0;  // initial alpha
  double negative_sample_rate = 5.0;
  std::uint64_t seed = 0;
  Trace* trace = nullptr;  // fit only: one row per epoch
  // Fit only: the block layout (see optimize_embedding) on `threads` threads instead of the
  // sequential one.
  bool blocks = false;
  unsigned threads = 1;
};

// The fit: edges of the symmetric graph move both of their ends, processed in their fixed order
// on one thread, so the result depends on the seed alone. Logs per epoch the mean cross-entropy
// of the sampled pairs (each positive sample with its negatives), the root mean square of the
// clipped per-sample gradients, the learning rate as step, and the time.
// With `blocks`, each epoch walks the edges in fixed blocks of about n / 4 edges (block b holds
// every nb-th edge from b, so one point's edges fall in different blocks): the samples of a block
// are taken in parallel at the positions the block starts from, each edge with its own random
// stream drawn from the seed, the epoch and the edge, and their moves are added to the embedding
// in edge order. Blocks, streams and the order of the sums depend on n and the seed only: the same
// bits for any thread count (a different algorithm from the sequential one, whose every sample
// sees the moves of the samples before it).
void optimize_embedding(arma::mat& Y, const Edges& e, const LayoutOptions& o);

// The transform: new points (columns of Ynew) move towards their training neighbours in Yref and
// away from random training points; the training embedding stays fixed, so the points are
// independent and run on `threads` threads, each with its own random stream drawn from the seed
// and the point's index: the same bits for any thread count. Edges must be grouped by head.
void optimize_new_points(arma::mat& Ynew, const arma::mat& Yref, const Edges& e,
                         const LayoutOptions& o, unsigned threads);

}  // namespace drbench::umap
