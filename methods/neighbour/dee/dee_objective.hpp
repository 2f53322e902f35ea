#pragma once
// Discriminative elastic embedding (Zheng, Zhang, Cattani & Wang, Comput. Math. Methods Med. 2014,
// papers/001), eq. 10-17, re-derived because the extracted equations lost their layout:
//
//   E(A) = sum_nm w+_nm |A x_nm|^2 + lambda sum_nm w-_nm exp(-|A x_nm|^2),   x_nm = x_n - x_m,
//   w+_nm = exp(-|x_nm|^2 / (2 sigma^2)) for same-class pairs (n != m), else 0     (eq. 10)
//   w-_nm = |x_nm|^2 for different-class pairs, else 0                              (eq. 11)
//
// over ordered pairs (each unordered pair counted twice, as eq. 12 sums n, m = 1..N). Gradient
// (eq. 13): dE/dA = 4 A X L X^T with L the Laplacian of W = w+ - lambda w- exp(-|A x_nm|^2).
//
// Search directions, each -G M^-1 for a constant symmetric positive definite D x D matrix M, so
// one Cholesky factor M = R^T R serves every iteration (two triangular solves, O(D^2 dim)):
//  - Laplacian (LD, eq. 15-17): M = 4 (X L+ X^T + mu I), the attractive part of the Hessian;
//  - fixed point (FP, eq. 14): the paper's A X (D+ - L) X^T (X D+ X^T)^-1 - A equals
//    -(G / 4) (X D+ X^T)^-1 exactly, since A X D+ X^T (X D+ X^T)^-1 = A; we use that form,
//    M = 4 (X D+ X^T + mu I), which stays a descent direction once the ridge is added (X D+ X^T
//    is singular whenever D > N, as for ORL and Yale at D = 1024).
// X L+ X^T is singular along the directions in which every class is constant (L+ 1_c = 0 for each
// class indicator 1_c) and along the complement of the data's span, so mu is relative:
// mu = mu_rel * trace(X L+ X^T) / D (resp. X D+ X^T).
#include <armadillo>

#include "framework/core/keywords.hpp"
#include "framework/optim/objective.hpp"

namespace drbench {

// The constant metric of the LD and FP directions: the Cholesky factor of M = 4 (S + mu I) for a
// D x D matrix S (X L+ X^T or X D+ X^T), mu = mu_rel trace(S) / D, and -G M^-1 from it. Shared by
// the dense and the linear-time objective, which differ only in how they form S.
class DeeMetric {
 public:
  // Factors M; returns the mu used. Throws MethodError when M is not positive definite.
  double factor(const arma::mat& S, double mu_rel);
  // -G M^-1 (G and the result dim x D, vectorised).
  arma::vec direction(const arma::vec& grad, arma::uword dim) const;

 private:
  arma::mat R_, Rt_;  // upper Cholesky factor of M and its transpose
};

class DeeObjective final : public Objective {
 public:
  // X: D x N (centred or not: only differences enter); Wp, Wm: N x N symmetric, zero diagonal.
  DeeObjective(const arma::mat& X, arma::mat Wp, arma::mat Wm, double lambda, arma::uword dim);
  double evaluate(const arma::vec& a, arma::vec* grad) override;

  arma::uword dim() const { return dim_; }
  const arma::mat& attractive() const { return Wp_; }

  // Factor of M = 4 (S + mu I), S = X L+ X^T (laplacian) or X D+ X^T (fixed point), with
  // mu = mu_rel trace(S) / D; returns the mu used.
  double factor_laplacian(double mu_rel);
  double factor_fixed_point(double mu_rel);
  // -G M^-1 for the factored M (G and the result dim x D, vectorised).
  arma::vec preconditioned_direction(const arma::vec& grad) const {
    return metric_.direction(grad, dim_);
  }

 private:
  const arma::mat& X_;
  arma::mat Wp_, Wm_;
  double lambda_;
  arma::uword dim_;
  DeeMetric metric_;
};

// w+ (heat kernel of width sigma = kernel_width between same-class points) and w- (squared
// distances between different-class points), from the shared affinity module. The reference of a
// relative width is the sigma with 2 sigma^2 = the mean squared distance between same-class pairs
// (relative 1 is that sigma; absolute is sigma itself).
struct DeeWeights {
  arma::mat Wp, Wm;
  double kernel_width = 0.0;  // sigma actually used
};
DeeWeights dee_weights(const arma::mat& X, const arma::uvec& labels,
                       const keywords::KernelWidth& width);

}  // namespace drbench
