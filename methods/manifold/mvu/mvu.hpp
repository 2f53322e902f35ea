#pragma once
// Maximum variance unfolding (mvu.cpp).
#include <armadillo>

#include "methods/common/setting_method.hpp"

namespace drbench {

struct MvuSetting {
  arma::uword neighbours = 6;
  // A disconnected graph joined (else refused): left apart, trace(K) would be unbounded.
  bool connect = true;
  bool at_most = false;  // the edges as inequalities (edge_lengths: at_most)
  arma::uword iterations = 100;
  double tolerance = 1e-6;
};

class Mvu final : public SettingMethod<MvuSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  // The learnt Gram matrix (n x n, input units squared) and the solver's largest relative
  // constraint violation, for tests.
  const arma::mat& gram() const { return K_; }
  double max_violation() const { return max_violation_; }

 private:
  arma::mat K_;
  double max_violation_ = 0.0;
};

}  // namespace drbench
