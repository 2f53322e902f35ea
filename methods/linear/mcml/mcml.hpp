#pragma once
// Maximally collapsing metric learning (Globerson & Roweis, NIPS 2005, eq. 3-4), in the low-rank
// form that learns L (dim x d) instead of the full PSD matrix A = L^T L (drtoolbox's mcml; the
// paper's section 4 notes the problem is then no longer convex):
//   minimise sum_i KL(p0(.|i) || p(.|i)),  p(j|i) = exp(-|L x_i - L x_j|^2) / sum_{k != i} ...,
// with p0(j|i) uniform over the other points of i's class. A point alone in its class has no
// target distribution and adds nothing. A point, training or new, maps by L (x - mean).
#include <armadillo>
#include <string>

#include "framework/optim/objective.hpp"
#include "methods/common/linear_method.hpp"
#include "methods/common/metric_learning.hpp"

namespace drbench {

// The objective as a function of vec(L), L dim x d (column-major), and its gradient
// 2 L X Lap(W + W^T) X^T with W_ji = p0(j|i) - p(j|i) (Globerson & Roweis, eq. 4, through L).
class McmlObjective final : public Objective {
 public:
  McmlObjective(const arma::mat& X, const arma::uvec& labels, arma::uword dim);
  double evaluate(const arma::vec& x, arma::vec* grad) override;

 private:
  const arma::mat& X_;
  arma::mat P0_;          // n x n, column i: p0(.|i)
  arma::rowvec entropy_;  // sum_j p0(j|i) log p0(j|i) per point
  arma::uword dim_;
};

class Mcml final : public LinearMethod {
 public:
  explicit Mcml(const LinearMapSetting& s) : LinearMethod("mcml"), s_(s) {}
  void fit(const FitInput& in) override;
  double objective() const { return objective_; }  // sum of the KL divergences at the end
  const arma::mat& start() const { return start_; }

 private:
  LinearMapSetting s_;
  double objective_ = 0;
  arma::mat start_;
};

}  // namespace drbench
