#pragma once
// The lasso by least angle regression (Efron, Hastie, Johnstone & Tibshirani, Ann. Stat. 2004,
// section 3.1 "LARS-Lasso"): follows the piecewise-linear path of
//   min_b 1/2 |y - X b|^2 + lambda |b|_1
// from lambda_max = max_j |x_j^T y| down to a target lambda or a target number of nonzeros. Works
// on the Gram matrix, so many responses that share one design (the projection vectors of sparse
// OIP) pay for X^T X once.
#include <armadillo>

namespace drbench {

struct LassoSolution {
  arma::vec beta;         // p coefficients
  double lambda = 0.0;    // the lambda at which the path stopped
  arma::uword steps = 0;  // knots visited (variables added or dropped)
  arma::uword nonzeros = 0;
};

// G = X^T X (p x p), Xty = X^T y. Stops at the first of: lambda reaches `lambda`, the active set
// would grow beyond `max_nonzeros` (0 = no limit), or the active Gram block becomes singular
// (more active variables than the rank of X).
LassoSolution lasso_lars_gram(const arma::mat& G, const arma::vec& Xty, double lambda,
                              arma::uword max_nonzeros);

// Convenience form on the design X (n x p) and response y (n).
LassoSolution lasso_lars(const arma::mat& X, const arma::vec& y, double lambda,
                         arma::uword max_nonzeros);

}  // namespace drbench
