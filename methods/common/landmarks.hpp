#pragma once
// Landmark choice shared by the landmark methods (landmark MDS, landmark MVU).
#include <armadillo>

#include "framework/core/rng.hpp"

namespace drbench {

// MaxMin (de Silva & Tenenbaum): a random first point, then each next one the point farthest
// from those already chosen, so the landmarks spread over the data. X d x n; m <= n indices.
arma::uvec maxmin_landmarks(const arma::mat& X, arma::uword m, Rng& rng);

}  // namespace drbench
