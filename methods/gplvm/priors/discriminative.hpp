#pragma once
// DGPLVM's discriminative prior (Urtasun & Darrell 2007, eq. 6-9): with the GDA criterion in the
// latent space
//   S_w = sum_c N_c/N * 1/N_c sum_{i in c} (x_i - M_c)(x_i - M_c)^T,
//   S_b = sum_c N_c/N (M_c - M_0)(M_c - M_0)^T,      J(X) = tr(S_w^-1 S_b),
// p(X) is proportional to exp(-J^-1 / sigma_d^2), so -log p(X) = 1 / (sigma_d^2 J) + const.
// S_b has rank at most C-1, so the prior only constrains C-1 latent directions: the method caps the
// latent dimension there (MethodError above). A small absolute ridge keeps S_w invertible when a
// class has fewer points than dimensions.
//
// Gradient (S_w, S_b symmetric, A = S_w + ridge I): dJ = tr(A^-1 dS_b) - tr(A^-1 S_b A^-1 dS_w),
// and
//   d tr(G S_w)/dx_i = 2/N G (x_i - M_c),   d tr(G S_b)/dx_i = 2/N G (M_c - M_0)
// (the terms through M_c and M_0 vanish because deviations sum to zero), so
//   dJ/dx_i = 2/N [A^-1 (M_c - M_0) - A^-1 S_b A^-1 (x_i - M_c)],   d(-log p)/dX = -dJ/(sigma_d^2
//   J^2).
#include <armadillo>

#include "methods/gplvm/prior.hpp"

namespace drbench {

class DiscriminativePrior final : public LatentPrior {
 public:
  DiscriminativePrior(const arma::uvec& labels, std::size_t n_classes, double sigma_d,
                      double ridge = 1e-8);
  std::string name() const override { return "gda"; }
  double value_grad(const arma::mat& X, arma::mat* gX) const override;
  // J(X) = tr(S_w^-1 S_b) (with the ridge).
  double criterion(const arma::mat& X) const;

 private:
  arma::uvec labels_;
  arma::vec class_size_;
  double sigma_d_;
  double ridge_;
};

}  // namespace drbench
