#pragma once
// Trustworthiness and continuity computed directly from their definition (Venna & Kaski 2001):
// an independent reference for the co-ranking pass (framework/eval/coranking.hpp), which is what
// drbench scores with. Tests and benchmarks only.
#include <armadillo>

namespace drbench {

double trustworthiness(const arma::mat& high, const arma::mat& low, arma::uword k);
double continuity(const arma::mat& high, const arma::mat& low, arma::uword k);

}  // namespace drbench
