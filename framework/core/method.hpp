#pragma once
// The one interface between the framework and a dimensionality-reduction method. A method never
// touches MPI, files or the config: it gets data, labels, a target dimension, its own random
// engine and a trace, and it answers with an embedding and (where it has one) an out-of-sample map.
#include <armadillo>
#include <cstddef>
#include <string>

#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"

namespace drbench {

// A label entry of a point whose class the method must not see (transductive protocol, methods
// whose descriptor sets partial_labels).
inline constexpr arma::uword kUnlabelled = arma::uword(-1);

struct FitInput {
  const arma::mat& X;        // d x n, one column per point (mlpack convention)
  const arma::uvec* labels;  // n labels in 0..C-1 (or kUnlabelled); nullptr: unsupervised
  std::size_t n_classes;     // C (0 when no labels are known)
  arma::uword dim;           // target latent dimension
  Rng& rng;                  // the task's own engine: never use arma's global RNG
  Trace* trace;              // non-null: iterative methods log every iteration here
  // Sequence id of each training point, the points keeping time order inside a sequence; nullptr
  // when the dataset has none (dynamics priors refuse such data, naming `dataset`).
  const arma::uvec* sequence = nullptr;
  std::string dataset = {};
  // Threads the method may use inside this fit (the config's `threads`): the big-data paths
  // (neighbour graphs, gradients, sparse products) split their loops over them with
  // framework/support/parallel.hpp. Results that depend on the count say so in the method's doc.
  unsigned threads = 1;
  // The points transform() will be asked to map right after this fit (the holdout protocol's test
  // points; nullptr otherwise), for a method that maps them in the same pass as the fit (an
  // external process). Every other method ignores it; the labels of these points never come.
  const arma::mat* Xnew = nullptr;
  // The training points kept sparse (d x n, one column per point), given only to a method whose
  // descriptor sets sparse_input, and only where the task's data are sparse and nothing densifies
  // them (framework/sched/run_task.hpp, keeps_sparse); X is then empty. Such a method reads them
  // through the sparse neighbour search (framework/neighbours/sparse_knn.hpp) and sparse PCA.
  const arma::sp_mat* Xs = nullptr;
  arma::uword n_points() const { return Xs ? Xs->n_cols : X.n_cols; }
  arma::uword n_features() const { return Xs ? Xs->n_rows : X.n_rows; }
};

class Method {
 public:
  virtual ~Method() = default;
  virtual void fit(const FitInput& in) = 0;
  // dim x n_train coordinates of the training points.
  virtual arma::mat embedding() const = 0;
  // dim x m coordinates of new points (columns of Xnew, same d as the training data). Methods with
  // no out-of-sample map keep this default, which throws; their descriptor says so, and the
  // config validator refuses the holdout protocol for them before anything runs.
  virtual arma::mat transform(const arma::mat& Xnew) const;
};

}  // namespace drbench
