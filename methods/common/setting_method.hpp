#pragma once
// What most nonlinear methods share: built from the setting their registration's `make` read once,
// fitted to a training embedding that embedding() hands back. The setting and the embedding have
// one owner here; a subclass states its fit, and its out-of-sample map where it has one.
#include <armadillo>

#include "framework/core/method.hpp"

namespace drbench {

template <class Setting>
class SettingMethod : public Method {
 public:
  explicit SettingMethod(const Setting& s) : s_(s) {}
  arma::mat embedding() const override { return Y_; }

 protected:
  Setting s_;
  arma::mat Y_;  // dim x n_train, written by fit
};

}  // namespace drbench
