#pragma once
// Landmark MVU (landmark_mvu.cpp).
#include <armadillo>

#include "methods/common/setting_method.hpp"

namespace drbench {

struct LandmarkMvuSetting {
  arma::uword neighbours = 6;
  arma::uword landmarks = 40;  // 0: every point
  bool maxmin = false;
  double reg = 1e-3;
  bool connect = true;
  bool at_most = true;  // the edges as inequalities (edge_lengths: at_most), the paper's
  arma::uword iterations = 100;
  double tolerance = 1e-6;
};

// Q (n x m): every point a linear combination of the landmarks (columns of X at `landmarks`),
// Q_l = I and Q_u = -Phi_uu^{-1} Phi_ul for Phi = (I - W)'(I - W), W the LLE reconstruction
// weights from the k nearest neighbours with ridge `reg`.
arma::mat landmark_reconstruction(const arma::mat& X, const arma::uvec& landmarks, arma::uword k,
                                  double reg);

class LandmarkMvu final : public SettingMethod<LandmarkMvuSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;
  arma::mat transform(const arma::mat& Xnew) const override;
  // The learnt landmark kernel (m x m, input units squared) and the solver's largest relative
  // constraint violation, for tests.
  const arma::mat& landmark_kernel() const { return L_; }
  double max_violation() const { return max_violation_; }

 private:
  arma::mat X_, L_;
  double max_violation_ = 0.0;
};

}  // namespace drbench
