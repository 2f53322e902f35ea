#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "tests/unit/manifold_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::procrustes_residual;

TEST_CASE("mds recovers a planar configuration up to rotation and reflection", "[manifold][mds]") {
  Rng rng(51);
  const arma::mat Y0 = rng.randn(2, 40);
  arma::mat Q, R;
  arma::qr(Q, R, rng.randn(5, 5));
  const arma::mat embed = Q.head_cols(2);  // isometric embedding of the plane into 5-D
  const arma::vec shift = rng.randn(5, 1);
  arma::mat X = embed * Y0;
  X.each_col() += shift;
  auto m = fit_method("mds", {}, X, 2);
  CHECK(procrustes_residual(m->embedding(), Y0) < 1e-9);
  CHECK(arma::abs(m->transform(X) - m->embedding()).max() < 1e-9);
  // Gower's formula places new points of the same plane exactly: fit jointly and compare.
  const arma::mat Ynew = rng.randn(2, 5);
  arma::mat Xnew = embed * Ynew;
  Xnew.each_col() += shift;
  const arma::mat both = arma::join_rows(m->embedding(), m->transform(Xnew));
  CHECK(procrustes_residual(both, arma::join_rows(Y0, Ynew)) < 1e-9);
}

TEST_CASE("mds rejects more dims than the distances support", "[manifold][mds]") {
  Rng rng(52);
  const arma::mat X = rng.randn(2, 20);
  CHECK_THROWS_AS(fit_method("mds", {}, X, 3), MethodError);
}
