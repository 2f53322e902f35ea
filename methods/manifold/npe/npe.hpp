#pragma once
// Neighbourhood preserving embedding (He, Cai, Yan & Zhang, ICCV 2005, section 2): LLE made linear.
// After a PCA pre-step (keeping `pca_ratio` of the variance), every point's LLE reconstruction
// weights W from its k nearest neighbours (sum to one, ridge times the local Gram's trace), then
// the projection a minimising the reconstruction error of the projected points relative to their
// variance: Z M Z' a = lambda Z Z' a with M = (I - W)'(I - W), smallest `dim`. A point, training or
// new, maps by a'(x - mean). It lives beside LLE because it shares LLE's weights
// (local_alignment.hpp); it is a linear method (family "linear").
#include <armadillo>

#include "methods/common/setting_projection.hpp"

namespace drbench {

struct NpeSetting {
  arma::uword neighbours = 12;
  double ridge = 1e-3;
  double pca_ratio = 1.0;
};

// eigenvalues(): ascending.
class Npe final : public SettingProjection<NpeSetting> {
 public:
  explicit Npe(const NpeSetting& s) : SettingProjection("npe", s) {}
  void fit(const FitInput& in) override;
};

}  // namespace drbench
