#pragma once
// What the linear neighbour embeddings (DEE, DSNE) share: the parameters are a projection A
// (dim x D, stored column-major in a vector for the optimisers), the embedding is Y = A X, and
// every pairwise objective of the squared distances d_nm = |A x_n - A x_m|^2 has the gradient
//   dE/dA = sum_nm (dE/dd_nm) 2 A x_nm x_nm^T = 4 A X L_K X^T = 4 (Y L_K) X^T
// with K_nm = dE/dd_nm (symmetric) and L_K = diag(K 1) - K its graph Laplacian.
#include <algorithm>
#include <armadillo>
#include <cmath>
#include <string>

#include "framework/core/keywords.hpp"
#include "framework/core/params.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/common/graph_path.hpp"
#include "methods/common/linear_method.hpp"

namespace drbench {

// Squared distances between the columns of Y (exact zeros on the diagonal, clamped at 0).
inline arma::mat embedded_sq_distances(const arma::mat& Y) {
  const arma::rowvec sq = arma::sum(arma::square(Y), 0);
  arma::mat D2 = -2.0 * (Y.t() * Y);
  D2.each_col() += sq.t();
  D2.each_row() += sq;
  D2.elem(arma::find(D2 < 0)).zeros();
  D2.diag().zeros();
  return D2;
}

// Copies the strict lower triangle of a square matrix onto the upper one, in cache-sized blocks
// (arma::symmatl walks the upper triangle row by row, which costs more than the N^2 exponentials
// the objectives compute).
inline void mirror_lower(arma::mat& K) {
  const arma::uword n = K.n_rows, b = 64;
  for (arma::uword j0 = 0; j0 < n; j0 += b)
    for (arma::uword i0 = j0; i0 < n; i0 += b) {
      const arma::uword j1 = std::min(n, j0 + b), i1 = std::min(n, i0 + b);
      for (arma::uword j = j0; j < j1; ++j)
        for (arma::uword i = std::max(i0, j + 1); i < i1; ++i) K(j, i) = K(i, j);
    }
}

// Squared distance between columns i and j of Y, accumulated directly: for dim << N this is far
// cheaper than a Gram matrix Y^T Y, which BLAS handles poorly with an inner dimension of 2.
inline double column_sq_distance(const arma::mat& Y, arma::uword i, arma::uword j) {
  const double* a = Y.colptr(i);
  const double* b = Y.colptr(j);
  double s = 0.0;
  for (arma::uword k = 0; k < Y.n_rows; ++k) {
    const double t = a[k] - b[k];
    s += t * t;
  }
  return s;
}

// 4 (Y L_K) X^T for a symmetric K with zero diagonal: dim x D, O(dim N^2 + dim N D).
inline arma::mat laplacian_gradient(const arma::mat& Y, const arma::mat& K, const arma::mat& X) {
  arma::mat YL = Y.each_row() % arma::sum(K, 0);
  YL -= Y * K;
  return 4.0 * YL * X.t();
}

// A random start: Gaussian entries scaled so that the embedded points' root-mean-square distance
// to their mean is `spread` (small, so the first iterations see the nearly quadratic regime and
// the optimisers, not the start, decide the layout).
inline arma::mat random_projection_start(arma::uword dim, const arma::mat& Xc, Rng& rng,
                                         double spread) {
  arma::mat A = rng.randn(dim, Xc.n_rows);
  const double rms = std::sqrt(arma::accu(arma::square(A * Xc)) / double(Xc.n_cols));
  if (rms > 0) A *= spread / rms;
  return A;
}

// A deterministic start: the leading principal directions of the data X (uncentred) as the rows
// of A (the one PCA's pca_start, its sign rule), scaled as random_projection_start scales its
// Gaussian rows. Rows that start orthogonal keep the fit from spending all dim rows on the one
// most discriminative direction.
inline arma::mat pca_projection_start(arma::uword dim, const arma::mat& X, double spread) {
  return pca_start(X, dim, {PcaSigns::Directions, PcaStartScale::RmsRadius, spread}).projection;
}

// The optimisers' settings both use: at most `iterations`, stopping when |A_new - A| <= tolerance
// |A| (the paper's rule; no absolute tolerances), logging to `trace`.
inline OptimOptions relative_change_options(int iterations, double tolerance, Trace* trace) {
  OptimOptions opt;
  opt.max_iterations = iterations;
  opt.x_tol = opt.f_tol = 0.0;
  opt.rel_x_tol = tolerance;
  opt.trace = trace;
  return opt;
}

// The start of A from `settings.init`: pca_projection_start of X, or random_projection_start of
// its centred copy Xc, both at spread 1e-2.
inline arma::mat projection_start(bool pca, arma::uword dim, const arma::mat& X,
                                  const arma::mat& Xc, Rng& rng) {
  return pca ? pca_projection_start(dim, X, 1e-2) : random_projection_start(dim, Xc, rng, 1e-2);
}

// Sums of |x_n - x_m|^2 over ordered pairs n != m, all and within classes, with the numbers of
// such pairs, in O(N D) from sum_{n, m in c} |x_n - x_m|^2 = 2 N_c sum_{n in c} |x_n - mean_c|^2:
// what the dense paths read off their N x N distance matrices (the mean same-class squared
// distance of the kernel width, the total of DEE's w-), for the linear-time paths.
struct PairDistanceTotals {
  double all = 0.0, same = 0.0;              // sums of squared distances
  double all_pairs = 0.0, same_pairs = 0.0;  // ordered pairs counted
  double different() const { return all - same; }
};
inline PairDistanceTotals pair_distance_totals(const arma::mat& X, const arma::uvec& labels) {
  PairDistanceTotals t;
  const double n = double(X.n_cols);
  auto scatter = [](const arma::mat& Z) {
    const arma::mat C = Z.each_col() - arma::mean(Z, 1);
    return arma::accu(arma::square(C));
  };
  t.all = 2.0 * n * scatter(X);
  t.all_pairs = n * (n - 1.0);
  const arma::uvec classes = arma::unique(labels);
  for (arma::uword c : classes) {
    const arma::uvec idx = arma::find(labels == c);
    const double nc = double(idx.n_elem);
    t.same += 2.0 * nc * scatter(X.cols(idx));
    t.same_pairs += nc * (nc - 1.0);
  }
  return t;
}

// t = 2 sigma^2 of the same-class heat kernel (DEE's w+, DSNE's P): `width` relative to the mean
// squared same-class distance same_total / same_pairs (pairs counted alike, ordered or not).
// Refuses data without a same-class and a different-class pair and a zero or infinite t, naming
// `method`.
double same_class_heat_t(const keywords::KernelWidth& width, double same_total, double same_pairs,
                         double different_pairs, const std::string& method);
// The same from the pair totals of the linear-time paths.
inline double same_class_heat_t(const keywords::KernelWidth& width, const PairDistanceTotals& tot,
                                const std::string& method) {
  return same_class_heat_t(width, tot.same, tot.same_pairs, tot.all_pairs - tot.same_pairs, method);
}

// The dense paths' pair data: squared input distances, the same-class and different-class masks
// (framework/affinity/weights.hpp's class_mask) and same_class_heat_t's t. Checks that there is
// one label a point.
struct ClassPairDistances {
  arma::mat D2, same, different;
  double t = 0.0;
};
ClassPairDistances class_pair_distances(const arma::mat& X, const arma::uvec& labels,
                                        const keywords::KernelWidth& width,
                                        const std::string& method);

// What DEE and DSNE read alike from their settings (the sparse path's in GraphPathSetting:
// gradient exact | barnes_hut | auto, linear_embedding_uses_barnes_hut).
struct LinearEmbeddingSettings : GraphPathSetting {
  // sigma of the same-class heat kernel; relative 1 (the default): 2 sigma^2 = the mean
  // same-class squared distance
  keywords::KernelWidth kernel_width;
  int iterations = 1000;
  double tolerance = 1e-3;  // stop when |A_new - A| <= tolerance |A|
  bool pca_start = false;   // A0 from the leading principal directions instead of Gaussian rows
};

// Whether a setting takes the linear-time path for n points in dim dimensions (`gradient`): auto
// takes it from 5,000 points in 1 to 3 dimensions, where the dense path stops being seconds; every
// committed DEE and DSNE result (at most 2,000 points) keeps its exact numbers.
bool linear_embedding_uses_barnes_hut(const std::string& gradient, arma::uword n, arma::uword dim);
// The fit's refusal of the linear-time path above 3 dimensions, naming `method`.
void require_barnes_hut_dims(const std::string& method, arma::uword dim);
// The trace notes of the linear-time path: its neighbours, the edges of the sparse weights it
// built from the class-restricted graph (under `edges_key`) and how the graph was searched.
void note_class_graph(Trace& trace, const arma::mat& X, arma::uword neighbours,
                      const GraphOptions& go, const std::string& edges_key, arma::uword edges);

// The keys behind LinearEmbeddingSettings, each method saying what its own do.
struct LinearEmbeddingText {
  std::string iterations, tolerance, init, gradient, neighbours;
};
// The sparse path's keys (GraphPathKeys) were added after results existed: at their defaults they
// stay out of the task keys.
struct LinearEmbeddingKeys : GraphPathKeys {
  RealKey kernel_width;
  ChoiceKey width;
  IntKey iterations;
  RealKey tolerance;
  ChoiceKey init;
  void read(const ParamSet& p, LinearEmbeddingSettings& s) const;
  // At most D directions; the linear-time path at most 3.
  arma::uword max_dim(const DataShape& s, const ParamSet& p) const;
};
LinearEmbeddingKeys linear_embedding_keys(const LinearEmbeddingText& text);
// The descriptor both start from: name, family, summary and reference, supervised, iterative, a
// map that reproduces the embedding, and keys.max_dim; each adds its parameters, cost, memory and
// make.
MethodInfo linear_embedding_info(const std::string& name, const std::string& summary,
                                 const std::string& reference, const LinearEmbeddingKeys& keys);

// DEE and DSNE as methods: a linear map fitted from their settings, and its final objective.
template <class Settings>
class LinearEmbedding : public LinearMethod {
 public:
  double objective() const { return objective_; }

 protected:
  LinearEmbedding(std::string name, Settings s) : LinearMethod(std::move(name)), s_(std::move(s)) {}
  Settings s_;
  double objective_ = 0.0;
};

}  // namespace drbench
