#pragma once
// Linear local tangent space alignment (Zhang, Yang, Zhao & Zhou, Neurocomputing 70, 2007,
// section 3): LTSA made linear. After a PCA pre-step (keeping `pca_ratio` of the variance), LTSA's
// alignment matrix B from every point's patch (the point and its k - 1 nearest others, as the
// paper), then the projection minimising the alignment error of the projected points under unit
// variance: Z B Z' a = lambda Z Z' a (Z centred), smallest `dim`. A point, training or new, maps by
// a'(x - mean). It lives beside LTSA because it shares LTSA's alignment matrix
// (local_alignment.hpp); it is a linear method (family "linear").
#include <armadillo>

#include "methods/common/setting_projection.hpp"

namespace drbench {

struct LltsaSetting {
  arma::uword neighbours = 12;
  double pca_ratio = 1.0;
};

// eigenvalues(): ascending.
class Lltsa final : public SettingProjection<LltsaSetting> {
 public:
  explicit Lltsa(const LltsaSetting& s) : SettingProjection("lltsa", s) {}
  void fit(const FitInput& in) override;
};

}  // namespace drbench
