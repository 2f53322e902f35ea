#pragma once
// Maximum variance unfolding (mvu.cpp).
#include <armadillo>

#include "framework/core/method.hpp"

namespace drbench {

struct MvuSetting {
  arma::uword neighbours = 6;
  // A disconnected graph joined (else refused): left apart, trace(K) would be unbounded.
  bool connect = true;
  bool at_most = false;  // the edges as inequalities (edge_lengths: at_most)
  arma::uword iterations = 100;
  double tolerance = 1e-6;
};

class Mvu final : public Method {
 public:
  explicit Mvu(const MvuSetting& s) : s_(s) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return Y_; }
  // The learnt Gram matrix (n x n, input units squared) and the solver's largest relative
  // constraint violation, for tests.
  const arma::mat& gram() const { return K_; }
  double max_violation() const { return max_violation_; }

 private:
  MvuSetting s_;
  arma::mat K_, Y_;
  double max_violation_ = 0.0;
};

}  // namespace drbench
