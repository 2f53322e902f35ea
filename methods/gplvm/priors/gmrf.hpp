#pragma once
// GPLRF's Gaussian Markov random field prior (Zhong et al. 2010, eq. 5-9):
//   -log p(X) = alpha/2 tr(X L X^T) + const,   L = D - W,  W_ij = 1 for i != j of the same class.
// (The paper stores points as rows and writes tr(X^T L X); drbench's X is q x n.)
// Within class c, L restricted to the class is n_c I - 1 1^T, so (L X^T) row i = n_c x_i - S_c with
// S_c the sum of the class's latent points: value and gradient cost O(nq) and L is never formed.
#include <armadillo>

#include "methods/gplvm/prior.hpp"

namespace drbench {

class GmrfPrior final : public LatentPrior {
 public:
  // labels in 0..n_classes-1, one per latent point (column of X); alpha > 0.
  GmrfPrior(const arma::uvec& labels, std::size_t n_classes, double alpha);
  std::string name() const override { return "gmrf"; }
  double value_grad(const arma::mat& X, arma::mat* gX) const override;

  double alpha() const { return alpha_; }
  // X L^T (= X L), q x n, without forming L.
  arma::mat apply_laplacian(const arma::mat& X) const;

 private:
  arma::uvec labels_;
  arma::vec class_size_;  // n_c per class
  double alpha_;
};

}  // namespace drbench
