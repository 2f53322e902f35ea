#pragma once
// Laplacian eigenmaps (Belkin & Niyogi 2003): heat-kernel weights on the kNN graph, then the
// smallest non-trivial solutions of L y = lambda D y, normalised so that Y D Y' = I. Solved as
// the largest eigenvectors of S = D^-1/2 W D^-1/2 (mu = 1 - lambda), dropping the trivial
// D^1/2 1. New points by the Nystroem formula of Bengio et al. (2003, section 3):
// u_k(x) = 1/mu_k sum_j w(x, x_j) / sqrt(d(x) d_j) u_jk, y_k(x) = u_k(x) / sqrt(d(x)), with w over
// the k nearest training points; a training point uses its graph row and is reproduced exactly.
#include <armadillo>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"

namespace drbench {

class LaplacianEigenmaps final : public Method {
 public:
  explicit LaplacianEigenmaps(const ParamSet& p) : params_(p) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override;
  const arma::sp_mat& weights() const { return W_; }

 private:
  double weight(double sq_dist) const;
  ParamSet params_;
  arma::mat X_;
  arma::sp_mat W_;  // n x n graph weights
  arma::vec deg_;   // degrees d_j
  arma::vec mu_;    // eigenvalues of S for the kept vectors
  arma::mat U_;     // n x dim eigenvectors of S
  arma::mat Y_;     // dim x n
  double t_ = 1.0;  // heat-kernel width in squared input units
};

}  // namespace drbench
