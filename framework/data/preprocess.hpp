#pragma once
// Preprocessing chain fitted on the training columns only and then applied unchanged to the test
// columns, so no statistic of a test point leaks into training.
#include <armadillo>
#include <cstddef>
#include <utility>
#include <vector>

#include "framework/data/spec.hpp"

namespace drbench {

class Pipeline {
 public:
  explicit Pipeline(std::vector<PreprocStep> steps) : steps_(std::move(steps)) {}
  // By value and transformed in place: a caller that passes a temporary (ds.X.cols(idx)) pays for
  // one copy of the points in their raw dimension, not three (Fashion-MNIST's 60,000 x 784
  // training block is 376 MB a copy). The values are those of fitting, then applying step by step.
  void fit(arma::mat Xtrain) { fit_apply(std::move(Xtrain)); }  // d x n
  arma::mat fit_apply(arma::mat Xtrain);                        // d x n -> d' x n
  arma::mat apply(arma::mat X) const;                           // d x m -> d' x m
  // Sparse points (Dataset::Xs): where the chain is sparse_runs, its leading unit_norm steps and
  // its pca run on the sparse matrix (pca_of_sparse, framework/linalg/pca.hpp), whose projection
  // is dense and small, and the steps after it on that; any other chain densifies the points
  // first (the memory check states that block up front). The values equal the dense path's up to
  // rounding.
  arma::mat fit_apply(const arma::sp_mat& Xtrain);
  void fit(const arma::sp_mat& Xtrain) { fit_apply(Xtrain); }
  arma::mat apply(const arma::sp_mat& X) const;
  // Whether a chain keeps sparse points sparse: after any unit_norm steps, a pca.
  static bool sparse_runs(const std::vector<PreprocStep>& steps);
  const std::vector<PreprocStep>& steps() const { return steps_; }

 private:
  struct Fitted {
    arma::vec shift, scale;  // x -> (x - shift) / scale (per feature, or 1-long for global)
    arma::mat proj;          // PCA: d x k basis (applied after the shift)
  };
  // `centred`: the shift was already subtracted (PCA's fit centres in place).
  void apply_step(std::size_t i, arma::mat& X, bool centred) const;
  // Fits steps first.. on X (the earlier ones fitted already) and applies them.
  arma::mat fit_from(std::size_t first, arma::mat X);
  // How many components a pca step keeps of the axes with these variances (total: the variance
  // of every direction).
  arma::uword pca_components(const PreprocStep& step, const arma::mat& axes, const arma::vec& var,
                             double total, arma::uword d, arma::uword n) const;

  std::vector<PreprocStep> steps_;
  std::vector<Fitted> fitted_;
};

}  // namespace drbench
