#pragma once
// Preprocessing chain fitted on the training columns only and then applied unchanged to the test
// columns, so no statistic of a test point leaks into training.
#include <armadillo>
#include <cstddef>
#include <vector>

#include "framework/data/spec.hpp"

namespace drbench {

class Pipeline {
 public:
  explicit Pipeline(std::vector<PreprocStep> steps) : steps_(std::move(steps)) {}
  void fit(const arma::mat& Xtrain);          // d x n
  arma::mat apply(const arma::mat& X) const;  // d x m -> d' x m
  arma::mat fit_apply(const arma::mat& Xtrain) {
    fit(Xtrain);
    return apply(Xtrain);
  }
  const std::vector<PreprocStep>& steps() const { return steps_; }

 private:
  struct Fitted {
    arma::vec shift, scale;  // x -> (x - shift) / scale (per feature, or 1-long for global)
    arma::mat proj;          // PCA: d x k basis (applied after the shift)
  };
  arma::mat apply_step(std::size_t i, const arma::mat& X) const;

  std::vector<PreprocStep> steps_;
  std::vector<Fitted> fitted_;
};

}  // namespace drbench
