#pragma once
// Classical (Torgerson-Gower) MDS of squared distances, shared by mds, Isomap and Sammon's start:
// the top eigenvectors of B = -1/2 H D2 H. It also maps a new point from its squared distances
// to the training points with Gower's formula, which is the Nystroem extension of Bengio et al.
// (2003, eq. 8-10):  y_k(x) = 1/sqrt(l_k) sum_j v_jk Kt(x, x_j),
// Kt(x, x_j) = -1/2 (d2(x, x_j) - mean_i d2(x_i, x_j) - mean_i d2(x, x_i) + mean_ij d2(x_i, x_j)).
// On a training point Kt is the row of B, so the extension reproduces the embedding exactly.
#include <armadillo>

namespace drbench {

class MdsSpectrum {
 public:
  // D2: n x n squared distances (symmetric). Throws MethodError naming `what` when fewer than dim
  // eigenvalues are positive (the distances are not Euclidean enough for that many dims).
  void fit(const arma::mat& D2, arma::uword dim, const char* what);
  const arma::mat& embedding() const { return Y_; }
  const arma::vec& eigenvalues() const { return lambda_; }
  // D2new: n x m squared distances between the training points and m new points.
  arma::mat extend(const arma::mat& D2new) const;

 private:
  arma::vec lambda_;
  arma::mat V_;         // n x dim eigenvectors of B
  arma::vec col_mean_;  // mean_i d2(x_i, x_j) for every training point j
  double grand_mean_ = 0.0;
  arma::mat Y_;  // dim x n
};

}  // namespace drbench
