#pragma once
// Diffusion maps (Coifman & Lafon 2006, Appl. Comput. Harmon. Anal. 21, sections 2-3): a Gaussian
// kernel K_ij = exp(-|x_i - x_j|^2 / (2 sigma^2)) on all pairs, the density normalisation
// K^(a) = K_ij / (p_i p_j)^a (p = K 1; a = 0 the graph Laplacian, 1/2 Fokker-Planck, 1 the
// Laplace-Beltrami operator, independent of the sampling density), the Markov matrix
// P = D^-1 K^(a) (D its row sums) and its right eigenvectors psi_j with eigenvalues
// 1 = l_0 > l_1 >= ...; the embedding at diffusion time t is (l_1^t psi_1, ..., l_dim^t psi_dim),
// psi_0 = 1 dropped, psi_j normalised by the stationary distribution (sum_i pi_i psi_j(i)^2 = 1),
// so Euclidean distance in it is the diffusion distance. P's eigenproblem is solved through the
// symmetric D^-1/2 K^(a) D^-1/2. A new point x maps by the Nystroem extension of the eigenvectors,
// psi_j(x) = (1 / l_j) sum_i P(x, i) psi_j(i), with P(x, .) its kernel row normalised the same way
// (Coifman & Lafon 2006b, geometric harmonics); a training point maps to its own embedding.
#include <armadillo>

#include "methods/common/setting_method.hpp"

namespace drbench {

struct DiffusionMapSetting {
  double sigma = 1.0;
  bool relative = true;  // sigma in multiples of the median pairwise training distance
  double alpha = 1.0;    // density normalisation exponent
  double time = 1.0;     // diffusion time t
};

class DiffusionMaps final : public SettingMethod<DiffusionMapSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  arma::mat transform(const arma::mat& Xnew) const override;
  // Eigenvalues of the Markov matrix P, l_0 = 1 first (dim + 1 of them).
  const arma::vec& eigenvalues() const { return lambda_; }
  double sigma() const { return sigma_; }

 private:
  // Rows P(x, .) of new points x (columns of Xq) against the training points, n_q x n.
  arma::mat markov_rows(const arma::mat& Xq) const;
  arma::mat X_, Psi_;     // Psi_: n x dim right eigenvectors (without psi_0)
  arma::vec p_, lambda_;  // p_: training densities K 1
  double sigma_ = 1.0;
};

}  // namespace drbench
