#pragma once
// rankGPLVM's rank prior (Geiger, Urtasun & Darrell 2009): a smooth penalty on the singular values
// s_i of the centred latent matrix Xc that drives unneeded latent directions to zero,
//   -log p(X) = alpha sum_i ln(1 + s_i^2 / beta^2) + const.
// Value and gradient come from the SVD Xc = U S V^T: the gradient is
// U diag(2 alpha s_i / (beta^2 + s_i^2)) V^T = 2 alpha (beta^2 I + Xc Xc^T)^-1 Xc, a matrix
// function of Xc, so it stays well defined where singular values coincide. The tests check it
// against finite differences and the SVD form against a direct evaluation.
// Geiger et al. start the latent space at the data itself (q = D) and let the prior remove the
// directions it does not need; in drbench that start is `init: pca` with dims >= the input
// dimension (results/gplrf_usps.md: at a 9-D PPCA start the prior leaves GP-LVM's error alone).
#include <armadillo>

#include "methods/gplvm/prior.hpp"

namespace drbench {

class RankPrior final : public LatentPrior {
 public:
  RankPrior(double alpha, double beta);
  std::string name() const override { return "rank"; }
  double value_grad(const arma::mat& X, arma::mat* gX) const override;

 private:
  double alpha_, beta_;
};

}  // namespace drbench
