#pragma once
// The test doubles of the framework's own tests (config, memory, protocols): methods whose
// descriptors the tests choose, so that no test depends on what a real method declares today.
// Their names start with test_, which the contract test skips.
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "framework/core/registry.hpp"

namespace drbench::testing {

// Embeds each point as its first `dim` coordinates (all of them when dim exceeds d) and maps new
// points the same way; `on_fit` sees the fit's input first, the one thing a fake does of its own.
class HeadRowsMethod final : public Method {
 public:
  using Hook = std::function<void(const FitInput&)>;
  explicit HeadRowsMethod(Hook on_fit) : on_fit_(std::move(on_fit)) {}
  void fit(const FitInput& in) override {
    if (on_fit_) on_fit_(in);
    Y_ = in.X.head_rows(std::min<arma::uword>(in.dim, in.X.n_rows));
  }
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& X) const override { return X.head_rows(Y_.n_rows); }

 private:
  Hook on_fit_;
  arma::mat Y_;
};

// A descriptor that makes a HeadRowsMethod; the caller sets whatever else the test needs.
inline MethodInfo fake_method_info(std::string name, std::string family, std::string summary,
                                   HeadRowsMethod::Hook on_fit = {}) {
  MethodInfo m;
  m.name = std::move(name);
  m.family = std::move(family);
  m.summary = std::move(summary);
  m.make = [on_fit = std::move(on_fit)](const ParamSet&) {
    return std::make_unique<HeadRowsMethod>(on_fit);
  };
  return m;
}

}  // namespace drbench::testing
