#pragma once
// Data for the GP-LVM family's tests.
#include <armadillo>
#include <catch2/catch.hpp>
#include <memory>
#include <optional>

#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"

namespace drbench::testing {

// n points on a noisy 2-D curved sheet in d dimensions (d x n).
inline arma::mat sheet(Rng& rng, arma::uword n, arma::uword d, double noise) {
  const arma::mat T = rng.randn(2, n);
  const arma::mat W = rng.randn(d, 3);
  arma::mat F(3, n);
  F.row(0) = T.row(0);
  F.row(1) = T.row(1);
  F.row(2) = arma::sin(T.row(0)) % T.row(1);
  return W * F + noise * rng.randn(d, n);
}

// info's method made with `given` and fitted to 2 dims on Y with rng, logging to trace.
inline std::unique_ptr<Method> fit_2d(const MethodInfo& info, const ParamSet& given,
                                      const arma::mat& Y, Rng& rng, Trace& trace) {
  auto method = info.make(info.complete(given));
  FitInput in{Y, nullptr, 0, 2, rng, &trace};
  method->fit(in);
  return method;
}

// obj's analytic gradient at x within `tol` (largest relative error) of its finite differences
// (step h, or check_gradient's own default), the worst entry named on failure.
inline void check_gradient_matches(Objective& obj, const arma::vec& x, double tol,
                                   std::optional<double> h = std::nullopt) {
  const GradCheck gc = h ? check_gradient(obj, x, *h) : check_gradient(obj, x);
  INFO("worst index " << gc.worst << " analytic " << gc.analytic(gc.worst) << " numeric "
                      << gc.numeric(gc.worst));
  CHECK(gc.max_rel_error < tol);
}

}  // namespace drbench::testing
