#pragma once
// Neighbourhood components analysis (Goldberger, Roweis, Hinton & Salakhutdinov, NIPS 2004,
// section 2), as scikit-learn's NeighborhoodComponentsAnalysis (1.2): the linear map L (dim x d)
// maximising the expected number of points whose stochastic nearest neighbour shares their class,
// sum_i sum_{j in class(i)} p_ij with p_ij = softmax_j(-|L x_i - L x_j|^2), p_ii = 0, by L-BFGS on
// its negative from a PCA start (or the identity's first rows, or N(0, 1) entries). A point,
// training or new, maps by L (x - mean); the mean changes no distance.
#include <armadillo>

#include "framework/optim/objective.hpp"
#include "methods/common/linear_method.hpp"
#include "methods/common/metric_learning.hpp"

namespace drbench {

// -sum_i p_i over the columns of X (d x n) with their labels, as a function of vec(L), L dim x d
// (column-major), and its gradient (scikit-learn's _loss_grad_lbfgs with sign -1):
// dF/dL = -2 L X Wsym X' with Wsym the symmetrised weights p_ij (same_ij - p_i) and the negated
// column sums of the unsymmetrised weights on its diagonal.
class NcaObjective final : public Objective {
 public:
  NcaObjective(const arma::mat& X, const arma::uvec& labels, arma::uword dim);
  double evaluate(const arma::vec& x, arma::vec* grad) override;

 private:
  const arma::mat& X_;
  arma::mat same_;  // n x n, 1 where the labels agree
  arma::uword dim_;
};

class Nca final : public LinearMethod {
 public:
  explicit Nca(const LinearMapSetting& s) : LinearMethod("nca"), s_(s) {}
  void fit(const FitInput& in) override;
  double objective() const { return objective_; }  // -sum_i p_i at the end

 private:
  LinearMapSetting s_;
  double objective_ = 0;
};

}  // namespace drbench
