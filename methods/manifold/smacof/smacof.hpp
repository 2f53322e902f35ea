#pragma once
// Metric and non-metric MDS by SMACOF (de Leeuw 1977; Borg & Groenen, Modern Multidimensional
// Scaling, 2005, chapter 8 and 9.2): minimise the raw stress
//   sigma(Y) = sum_{i<j} (|y_i - y_j| - dhat_ij)^2
// by the Guttman transform Y <- B(Y) Y / n, B_ij = -dhat_ij / d_ij (i != j), B_ii = -sum_j B_ij,
// which never increases the stress (majorisation). Metric: dhat = the Euclidean distances of the
// input. Non-metric (Kruskal 1964): before each transform dhat is the isotonic (least-squares
// monotone) regression of the current distances on the order of the input distances, rescaled to
// sum dhat^2 = n(n-1)/2. The start is classical MDS (deterministic; scikit-learn draws random
// starts), and the stopping test is scikit-learn's (previous - current stress / sum_i |y_i|
// below `tolerance`). Transductive: SMACOF defines no map for new points.
#include <armadillo>

#include "framework/core/method.hpp"

namespace drbench {

struct SmacofSetting {
  bool metric = true;
  arma::uword iterations = 300;
  double tolerance = 1e-3;
};

class Smacof final : public Method {
 public:
  explicit Smacof(const SmacofSetting& s) : s_(s) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  double stress() const { return stress_; }
  // The same iteration from a given start (dim x n), for tests against scikit-learn's smacof.
  void fit_from(const arma::mat& X, const arma::mat& start, Trace* trace);

 private:
  SmacofSetting s_;
  arma::mat Y_;
  double stress_ = 0;
};

// Raw stress of Y (dim x n) against the symmetric target distances Dhat (n x n), and its gradient
// dsigma/dY_i = 2 sum_j (1 - dhat_ij / d_ij)(y_i - y_j) (zero-distance pairs contribute nothing)
// into *grad when non-null.
double raw_stress(const arma::mat& Y, const arma::mat& Dhat, arma::mat* grad);

// One Guttman transform B(Y) Y / n of Y (dim x n) for targets Dhat.
arma::mat guttman_transform(const arma::mat& Y, const arma::mat& Dhat);

// Least-squares non-decreasing fit to y (pool adjacent violators), in the given order.
arma::vec isotonic_regression(const arma::vec& y);

}  // namespace drbench
