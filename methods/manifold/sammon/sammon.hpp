#pragma once
// Sammon mapping (Sammon 1969): minimises the stress
//   E = 1/c sum_{i<j} (D_ij - d_ij)^2 / D_ij,   c = sum_{i<j} D_ij,
// between input distances D and embedding distances d with Sammon's pseudo-Newton step
// y <- y - g / |h| (h the diagonal of the Hessian), halving the step until the stress decreases
// (as in Cawley's sammon.m). Initialised by classical MDS. Pairs with D_ij = 0 are left out.
// Out of sample: a new point minimises its own stress against the fixed training embedding,
// E(y) = sum_j (D_j - |y - y_j|)^2 / D_j, with the same step; a converged training embedding is
// a stationary point of that problem, so transform(train) reproduces it to optimiser tolerance.
#include <armadillo>

#include "framework/core/params.hpp"
#include "methods/common/setting_method.hpp"

namespace drbench {

// Stress of Y (k x n) for input distances D (n x n), with its gradient and diagonal Hessian
// (both k x n) when the pointers are non-null. Reads the upper triangle of D only.
double sammon_stress(const arma::mat& D, const arma::mat& Y, arma::mat* grad, arma::mat* hdiag);

// A setting of the method's parameters, read once in its `make`.
struct SammonSetting {
  int iterations = 500;
  double tol = 1e-9;  // relative stress decrease that stops the fit
  double step = 1.0;  // initial step length (Sammon's magic factor)
};

class Sammon final : public SettingMethod<SammonSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  arma::mat transform(const arma::mat& Xnew) const override;
  double stress() const { return stress_; }

 private:
  arma::mat X_;
  double stress_ = 0.0;
};

}  // namespace drbench
