#pragma once
// rankGPLVM's rank prior (Geiger, Urtasun & Darrell 2009): a smooth penalty on the singular values
// s_i of the centred latent matrix Xc that drives unneeded latent directions to zero,
//   -log p(X) = alpha sum_i ln(1 + s_i^2 / beta^2) + const.
// Since sum_i ln(1 + s_i^2/beta^2) = ln det(I_q + Xc Xc^T / beta^2), the value needs only a q x q
// Cholesky; the gradient, U diag(2 alpha s_i / (beta^2 + s_i^2)) V^T by the SVD Xc = U S V^T,
// equals (2 alpha / beta^2) (I + Xc Xc^T / beta^2)^-1 Xc, which stays smooth where singular values
// coincide (the SVD form is what the tests check it against).
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
