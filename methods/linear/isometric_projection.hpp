#pragma once
// What OIP and SOIP (the two isometric projections of the OIP paper) share.
#include <armadillo>

namespace drbench {

// M of OIP's Algorithm 1, step 3, for centred data Xc (d x n) and tau (n x n):
// M = (Xc Xc^T)^2 - 2 Xc tau Xc^T, never forming the n x n matrix Xc^T Xc.
arma::mat oip_matrix(const arma::mat& Xc, const arma::mat& tau);

}  // namespace drbench
