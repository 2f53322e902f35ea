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
  const std::vector<PreprocStep>& steps() const { return steps_; }

 private:
  struct Fitted {
    arma::vec shift, scale;  // x -> (x - shift) / scale (per feature, or 1-long for global)
    arma::mat proj;          // PCA: d x k basis (applied after the shift)
  };
  // `centred`: the shift was already subtracted (PCA's fit centres in place).
  void apply_step(std::size_t i, arma::mat& X, bool centred) const;

  std::vector<PreprocStep> steps_;
  std::vector<Fitted> fitted_;
};

}  // namespace drbench
