#pragma once
// UMAP (McInnes, Healy & Melville 2018), following umap-learn 0.5: the fuzzy simplicial set of the
// shared neighbour graph (fuzzy_set.hpp), a spectral start from the normalised graph Laplacian, the
// a/b curve fitted to min_dist and spread, and the sampled SGD layout (layout.hpp). Out of sample:
// umap-learn's transform (memberships of a new point to its k nearest training points, started at
// their membership-weighted mean, moved with the training embedding fixed).
//
// Sparse points (FitInput::Xs): the exact sparse neighbour search (the same graph as the dense
// exact one, so the same embedding as the densified points under neighbour_graph: exact), and
// sparse PCA where the start falls back to PCA; new points are searched against them sparse.
//
// Threads: the neighbour graph, the smooth kNN calibration and the transform use `threads` and
// give the same bits for any count. The fit's SGD runs on one thread (edges in a fixed order, one
// random stream) under `layout: sequential` (the default, umap-learn's single-threaded layout),
// so the whole fit depends on the seed alone; `layout: parallel` takes the block layout of
// layout.hpp on `threads` threads, again the same bits for any count.
#include <armadillo>
#include <memory>
#include <string>
#include <utility>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/neighbours/sparse_knn.hpp"

namespace drbench {

// A setting's values, read once from its ParamSet in make.
struct UmapSettings {
  arma::uword neighbours = 15;
  std::string neighbour_graph = "auto";
  int iterations = 0;      // 0: umap::default_epochs
  int oos_iterations = 0;  // 0: iterations / 3 (100 or 30 when iterations is 0)
  double min_dist = 0.1, spread = 1.0, negative_sample_rate = 5.0, learning_rate = 1.0;
  std::string init = "spectral";
  std::string layout = "sequential";  // or "parallel": umap::LayoutOptions::blocks
};

class Umap final : public Method {
 public:
  explicit Umap(UmapSettings s) : s_(std::move(s)) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override;

  // The symmetric fuzzy graph of the fit (before pruning), for tests.
  const arma::sp_mat& graph() const { return graph_; }
  double a() const { return a_; }
  double b() const { return b_; }

 private:
  UmapSettings s_;
  arma::mat X_;  // training points: the neighbour index refers to them
  std::unique_ptr<NeighbourIndex> index_;
  arma::sp_mat Xs_;  // the training points where they came sparse, for sparse_index_
  std::unique_ptr<SparseNeighbourIndex> sparse_index_;
  arma::uword n_train_ = 0;
  arma::sp_mat graph_;
  arma::mat Y_;
  double a_ = 0.0, b_ = 0.0;
  int epochs_ = 0;
  unsigned threads_ = 1;
  std::uint64_t transform_seed_ = 0;
};

namespace umap {
// The epochs umap-learn runs when none are given: 500 up to 10,000 points, 200 beyond.
int default_epochs(arma::uword n);
// `dim` eigenvectors of the normalised Laplacian I - D^-1/2 G D^-1/2 after the trivial one (the
// next-smallest eigenvalues), by Lanczos on D^-1/2 G D^-1/2; false where it does not converge.
bool spectral_start(const arma::sp_mat& G, arma::uword dim, arma::mat& Y);
}  // namespace umap

}  // namespace drbench
