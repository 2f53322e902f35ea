#pragma once
// Neighbourhood-preservation measures of an embedding (Venna & Kaski 2001; Lee & Verleysen 2009).
#include <armadillo>

namespace drbench {

double trustworthiness(const arma::mat& high, const arma::mat& low, arma::uword k);
double continuity(const arma::mat& high, const arma::mat& low, arma::uword k);

}  // namespace drbench
