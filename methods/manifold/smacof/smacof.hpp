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
// below `tolerance`).
// New points (Trosset & Priebe 2008; Borg & Groenen 2005, 9.2): each is placed alone by minimising
// its own stress sum_i (|y - y_i| - dhat_i)^2 against the fixed training configuration, with the
// single-point Guttman transform y <- (1/n) sum_i (y_i + dhat_i (y - y_i) / |y - y_i|) from the
// nearest training point (a majorisation again: the point's stress never increases). Metric:
// dhat_i = |x - x_i|. Non-metric: the input distances go through the fitted monotone map (the
// training pairs' final disparities against their input distances, interpolated linearly, and
// proportionally beyond the extreme pairs).
#include <armadillo>
#include <vector>

#include "methods/common/setting_method.hpp"

namespace drbench {

struct SmacofSetting {
  bool metric = true;
  arma::uword iterations = 300;
  double tolerance = 1e-3;
};

class Smacof final : public SettingMethod<SmacofSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  arma::mat transform(const arma::mat& Xnew) const override;
  double stress() const { return stress_; }
  // The same iteration from a given start (dim x n), for tests against scikit-learn's smacof.
  void fit_from(const arma::mat& X, const arma::mat& start, Trace* trace);

 private:
  // Input distances of the new point to the training points -> its targets (non-metric: through
  // the fitted monotone map).
  arma::vec targets(const arma::vec& delta) const;

  arma::mat X_;
  arma::vec delta_sorted_, dhat_sorted_;  // non-metric: the final disparities by input distance
  double stress_ = 0;
};

// Raw stress of Y (dim x n) against the symmetric target distances Dhat (n x n), and its gradient
// dsigma/dY_i = 2 sum_j (1 - dhat_ij / d_ij)(y_i - y_j) (zero-distance pairs contribute nothing)
// into *grad when non-null.
double raw_stress(const arma::mat& Y, const arma::mat& Dhat, arma::mat* grad);

// One Guttman transform B(Y) Y / n of Y (dim x n) for targets Dhat.
arma::mat guttman_transform(const arma::mat& Y, const arma::mat& Dhat);

// Places one new point against the fixed training configuration Y (dim x n) with target distances
// dhat (n) by the single-point Guttman transform, from the training point with the smallest target,
// for at most `iterations` steps (fewer once a step moves it by under 1e-12 of the targets'
// scale). The point's stress before each step is appended to *stresses when non-null.
arma::vec place_point(const arma::mat& Y, const arma::vec& dhat, arma::uword iterations,
                      std::vector<double>* stresses = nullptr);

// Least-squares non-decreasing fit to y (pool adjacent violators), in the given order.
arma::vec isotonic_regression(const arma::vec& y);

}  // namespace drbench
