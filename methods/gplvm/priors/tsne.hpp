#pragma once
// tSNEGPLVM's regulariser (van der Maaten 2009): the latent points should keep the local
// neighbourhoods of the data in the t-SNE sense,
//   -log p(X) = lambda KL(P || Q) = lambda sum_{i != j} p_ij ln(p_ij / q_ij),
// P the symmetrised Gaussian affinities of the data at a given perplexity (one precision per point
// by bisection on the entropy), Q the Student-t affinities of the latent points,
//   q_ij = (1 + |x_i - x_j|^2)^-1 / sum_{k != l} (1 + |x_k - x_l|^2)^-1,
// with the standard gradient 4 lambda sum_j (p_ij - q_ij)(1 + |x_i - x_j|^2)^-1 (x_i - x_j).
#include <armadillo>

#include "methods/gplvm/prior.hpp"

namespace drbench {

// Joint t-SNE affinities of the columns of Y (d x n) (framework/affinity): p_{j|i} with the
// precision of point i chosen by bisection so that the entropy of row i equals ln(perplexity),
// then P = (P_c + P_c^T) / (2n). Zero diagonal; sums to one.
arma::mat tsne_joint_affinities(const arma::mat& Y, double perplexity, double tol = 1e-5,
                                int max_steps = 200);

class TsnePrior final : public LatentPrior {
 public:
  TsnePrior(arma::mat P, double lambda);
  std::string name() const override { return "tsne"; }
  double value_grad(const arma::mat& X, arma::mat* gX) const override;
  const arma::mat& P() const { return P_; }

 private:
  arma::mat P_;
  double lambda_;
  double p_log_p_;  // sum p_ij ln p_ij over p_ij > 0, the constant part of KL(P||Q)
};

}  // namespace drbench
