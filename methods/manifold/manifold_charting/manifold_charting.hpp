#pragma once
// Manifold charting (manifold_charting.cpp).
#include <armadillo>
#include <vector>

namespace drbench {

// The charting cost D - U'U (over n) for the stacked coordinates U (n x m (q + 1)), the
// responsibilities R (n x m) and the local coordinates Z (component k: q x n).
arma::mat charting_cost(const arma::mat& U, const arma::mat& R, const std::vector<arma::mat>& Z);

}  // namespace drbench
