#pragma once
// Landmark choice shared by the landmark methods (landmark MDS, landmark MVU), and landmark MDS's
// triangulation (landmark MDS, landmark Isomap).
#include <algorithm>
#include <cstdint>

#include <armadillo>

#include "framework/core/rng.hpp"

namespace drbench {

// MaxMin (de Silva & Tenenbaum): a random first point, then each next one the point farthest
// from those already chosen, so the landmarks spread over the data. X d x n; m <= n indices.
arma::uvec maxmin_landmarks(const arma::mat& X, arma::uword m, Rng& rng);

// Landmark MDS (de Silva & Tenenbaum 2004): classical MDS of the squared distances among the m
// landmarks, then every point placed from its squared distances delta to them by distance-based
// triangulation, y = -1/2 L# (delta - delta_mean).
class LandmarkTriangulation {
 public:
  // Dm: m x m squared distances among the landmarks, symmetrised here (as full Isomap does);
  // `what` names the caller in MdsSpectrum's refusals.
  void fit(arma::mat Dm, arma::uword dim, const char* what);
  // D2: m x q squared distances of q points to the landmarks; returns dim x q.
  arma::mat place(arma::mat D2) const;
  arma::uword dim() const { return Lsharp_.n_rows; }

 private:
  arma::vec delta_mean_;  // mean squared distance of each landmark to the landmarks
  arma::mat Lsharp_;      // dim x m: L# = diag(1/sqrt(lambda)) V' = diag(1/lambda) Y_m
};

// The landmarks a setting of `requested` (its `landmarks` parameter; 0 = every point) uses on n
// training points: what the methods' dimension limits and budgets count.
inline double landmarks_used(std::int64_t requested, arma::uword n) {
  const double m = double(requested);
  return m == 0 ? double(n) : std::min(m, double(n));
}

}  // namespace drbench
