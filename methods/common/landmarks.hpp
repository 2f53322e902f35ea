#pragma once
// Landmark choice shared by the landmark methods (landmark MDS, landmark MVU).
#include <algorithm>
#include <cstdint>

#include <armadillo>

#include "framework/core/rng.hpp"

namespace drbench {

// MaxMin (de Silva & Tenenbaum): a random first point, then each next one the point farthest
// from those already chosen, so the landmarks spread over the data. X d x n; m <= n indices.
arma::uvec maxmin_landmarks(const arma::mat& X, arma::uword m, Rng& rng);

// The landmarks a setting of `requested` (its `landmarks` parameter; 0 = every point) uses on n
// training points: what the methods' dimension limits and budgets count.
inline double landmarks_used(std::int64_t requested, arma::uword n) {
  const double m = double(requested);
  return m == 0 ? double(n) : std::min(m, double(n));
}

}  // namespace drbench
