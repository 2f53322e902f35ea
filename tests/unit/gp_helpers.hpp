#pragma once
// Data for the GP-LVM family's tests.
#include <armadillo>

#include "framework/core/rng.hpp"

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

}  // namespace drbench::testing
