#pragma once
// Elastic embedding (Carreira-Perpinan 2010, ICML): nonparametric embedding minimising
//   E(Y) = sum w+_nm |y_n - y_m|^2 + lambda sum w-_nm exp(-|y_n - y_m|^2)
// with w+ Gaussian affinities of the inputs (calibrated to a perplexity, or of a fixed kernel
// width) and w- the squared input distances (the DEE paper's eq. 1), both scaled to sum to one so
// that lambda alone sets the balance. Optimisers: the spectral direction (Vladymyrov &
// Carreira-Perpinan 2012), the fixed-point iteration, gradient descent; each with backtracking
// Armijo (c = 0.1, rho = 0.8, started from the previous step) and the relative-change stop.
// Transductive.
#include <armadillo>
#include <string>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"

namespace drbench {

class ElasticEmbedding final : public Method {
 public:
  explicit ElasticEmbedding(const ParamSet& p) : params_(p) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  double objective() const { return objective_; }
  int iterations() const { return iterations_; }
  const std::string& stop_reason() const { return stop_reason_; }

 private:
  ParamSet params_;
  arma::mat Y_;
  double objective_ = 0.0;
  int iterations_ = 0;
  std::string stop_reason_;
};

}  // namespace drbench
