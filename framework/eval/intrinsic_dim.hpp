#pragma once
// Maximum-likelihood intrinsic dimension (Levina & Bickel 2004, NIPS 17, eq. 8): treating the
// neighbours of x within distance T_k(x) as a Poisson process of rate ~ t^(m-1), the MLE of m is
//   m_k(x) = [ 1/(k-1) sum_{j<k} log(T_k(x) / T_j(x)) ]^-1,
// averaged over the points and over k = k1..k2 (their eq. 9). Following MacKay & Ghahramani's
// correction (2005), the points' estimates are averaged as inverses, 1 / mean_x(1 / m_k(x)),
// which removes the upward bias of averaging m_k(x) itself. The 2009 review (van der Maaten et
// al.) sets its target dimensions with this estimator (k1 = 6, k2 = 12, the toolbox's defaults).
#include <armadillo>

namespace drbench {

// X is d x n, one column per point; needs k2 < n and no duplicate points among the neighbours
// (a zero distance has no logarithm: duplicates are skipped, which the caller may see as fewer
// points). Throws std::invalid_argument when k1 < 2, k2 < k1 or k2 >= n.
double mle_intrinsic_dimension(const arma::mat& X, arma::uword k1 = 6, arma::uword k2 = 12);

}  // namespace drbench
