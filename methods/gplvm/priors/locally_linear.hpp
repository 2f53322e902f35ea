#pragma once
// LL-GPLVM's locally linear prior (Urtasun et al. 2008, sec. 4): the latent points should keep the
// LLE reconstruction weights computed in the data space,
//   -log p(X) = 1/(2 sigma^2) tr(X M X^T) + const,   M = (I - W)^T (I - W),
// i.e. 1/(2 sigma^2) sum_i ||x_i - sum_j W_ij x_j||^2. W (n x n, k non-zeros per row) is kept
// sparse and M is never formed: with E = X - X W^T the value is |E|^2/(2 sigma^2) and the gradient
// (E - E W)/sigma^2.
#include <armadillo>

#include "methods/gplvm/prior.hpp"

namespace drbench {

// LLE weights of Roweis & Saul (2000): for each column y_i of Y (d x n), the weights over its k
// nearest other columns that sum to one and best reconstruct y_i; the local Gram matrix gets
// reg * trace(C) on its diagonal (needed when k > d). Row i of the result holds point i's weights.
arma::sp_mat lle_weights(const arma::mat& Y, arma::uword k, double reg);

class LocallyLinearPrior final : public LatentPrior {
 public:
  LocallyLinearPrior(arma::sp_mat W, double sigma);
  std::string name() const override { return "locally_linear"; }
  double value_grad(const arma::mat& X, arma::mat* gX) const override;
  const arma::sp_mat& weights() const { return W_; }

 private:
  arma::sp_mat W_;
  double precision_;  // 1 / sigma^2
};

}  // namespace drbench
