// LTSA, modified LLE and Hessian LLE (methods/manifold/local_alignment.hpp) against scikit-learn's
// LocallyLinearEmbedding (scripts/make_local_alignment_fixtures.py) and, for Hessian LLE, whose
// scikit-learn version is LTSA's (see methods/manifold/hessian_lle/hessian_lle.cpp), against the
// property the paper proves: on a locally isometric image of a flat domain the embedding is an
// affine function of the intrinsic coordinates.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "tests/unit/manifold_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::max_diff_up_to_sign;
using drbench::testing::sklearn_fixture;

namespace {

// |Y - affine fit of Y on T| / |Y - mean|: 0 when Y is an affine image of T.
double affine_residual(const arma::mat& Y, const arma::mat& T) {
  const arma::mat A = arma::join_cols(arma::ones(1, T.n_cols), T);
  const arma::mat B = arma::solve(A.t(), Y.t());
  const arma::mat Yc = Y.each_col() - arma::mean(Y, 1);
  return arma::norm(Y - B.t() * A, "fro") / arma::norm(Yc, "fro");
}

// 300 points of a plane in R^5 (X, intrinsic coordinates T) and of a quarter cylinder in R^3 (C,
// intrinsic coordinates Tc: angle and height), drawn from one seed.
struct PlaneAndCylinder {
  arma::mat T, X, C, Tc;
};

PlaneAndCylinder plane_and_cylinder() {
  Rng rng(5);
  const arma::uword n = 300;
  PlaneAndCylinder s;
  s.T = arma::join_cols(3.0 * rng.randu(1, n), rng.randu(1, n));
  s.X = rng.randn(5, 2) * s.T;
  const arma::rowvec t = 1.5 * arma::datum::pi * rng.randu(1, n), h = 2.0 * rng.randu(1, n);
  s.C = arma::join_cols(arma::join_cols(arma::cos(t), h), arma::sin(t));
  s.Tc = arma::join_cols(t, h);
  return s;
}

}  // namespace

TEST_CASE("ltsa and modified_lle match scikit-learn", "[manifold][ltsa][modified_lle]") {
  const arma::mat F = sklearn_fixture("local_alignment_sklearn.txt");
  const arma::mat X = F.rows(0, 2);
  const double scale = std::sqrt(double(X.n_cols));  // sklearn: unit-norm eigenvectors
  // scikit-learn's patches are a point's k nearest others.
  auto ltsa = fit_method(
      "ltsa", {{"neighbours", std::int64_t(10)}, {"patch", std::string("others")}}, X, 2);
  CHECK(max_diff_up_to_sign(ltsa->embedding() / scale, F.rows(3, 4)) < 1e-8);
  auto mlle = fit_method("modified_lle", {{"neighbours", std::int64_t(10)}}, X, 2);
  CHECK(max_diff_up_to_sign(mlle->embedding() / scale, F.rows(5, 6)) < 1e-8);
  // The out-of-sample map: scikit-learn's transform, on the same signs.
  const arma::mat Xnew = F.rows(9, 11).eval().cols(0, 9), ref = F.rows(12, 13).eval().cols(0, 9);
  arma::mat Ynew = mlle->transform(Xnew) / scale;
  for (arma::uword r = 0; r < 2; ++r)
    if (arma::dot(mlle->embedding().row(r), F.row(5 + r)) < 0) Ynew.row(r) *= -1;
  CHECK(arma::abs(Ynew - ref).max() < 1e-8);
  CHECK(arma::abs(ltsa->transform(X) - ltsa->embedding()).max() == 0.0);
  // scikit-learn's 'hessian' is its 'ltsa' (it keeps the whole complement of [1, U]).
  CHECK(max_diff_up_to_sign(F.rows(7, 8), F.rows(3, 4)) < 1e-9);
}

TEST_CASE("hessian_lle recovers the intrinsic coordinates of isometric data",
          "[manifold][hessian_lle]") {
  Rng rng(5);
  const arma::uword n = 300;
  // A flat rectangle placed linearly in 5-D: the Hessian null space is exactly {1, u, v}.
  const arma::mat T = arma::join_cols(3.0 * rng.randu(1, n), rng.randu(1, n));
  const arma::mat X = rng.randn(5, 2) * T;
  auto flat = fit_method("hessian_lle", {}, X, 2);
  CHECK(affine_residual(flat->embedding(), T) < 1e-8);
  // A quarter cylinder (curved, isometric to its unrolled rectangle (angle, height)): affine in
  // the intrinsic coordinates to the Hessian estimate's curvature error; LLE on the same data
  // is bent far more.
  const arma::rowvec t = 1.5 * arma::datum::pi * rng.randu(1, n), h = 2.0 * rng.randu(1, n);
  const arma::mat C = arma::join_cols(arma::join_cols(arma::cos(t), h), arma::sin(t));
  const arma::mat Tc = arma::join_cols(t, h);
  const double hlle = affine_residual(fit_method("hessian_lle", {}, C, 2)->embedding(), Tc);
  const double lle =
      affine_residual(fit_method("lle", {{"neighbours", std::int64_t(12)}}, C, 2)->embedding(), Tc);
  CHECK(hlle < 0.02);
  CHECK(hlle < 0.5 * lle);
  // It differs from LTSA (scikit-learn's 'hessian').
  const arma::mat a = fit_method("hessian_lle", {}, C, 2)->embedding();
  const arma::mat b = fit_method("ltsa", {{"neighbours", std::int64_t(12)}}, C, 2)->embedding();
  CHECK(max_diff_up_to_sign(a, b) > 1e-6);
  // Too few neighbours for the Hessian's dim(dim+1)/2 columns: refused, naming the fix.
  CHECK_THROWS_AS(fit_method("hessian_lle", {{"neighbours", std::int64_t(5)}}, C, 2), MethodError);
}

TEST_CASE("hessian_lle with patch: self recovers isometric data", "[manifold][hessian_lle]") {
  // The papers' patch (the point and its k-1 nearest others) keeps the Hessian's null space: flat
  // data is recovered exactly. On the quarter cylinder it matches scikit-learn's patch at 14
  // neighbours; at 10, 12 (the default) and 20 a spurious near-null vector of M living on 2-4
  // points takes a coordinate's place, and the fit is refused (next test case).
  const auto [T, X, C, Tc] = plane_and_cylinder();
  const ParamValue self = std::string("self");
  CHECK(affine_residual(fit_method("hessian_lle", {{"patch", self}}, X, 2)->embedding(), T) < 1e-8);
  const ParamValue k14 = std::int64_t(14);
  const double hself = affine_residual(
      fit_method("hessian_lle", {{"patch", self}, {"neighbours", k14}}, C, 2)->embedding(), Tc);
  const double hothers =
      affine_residual(fit_method("hessian_lle", {{"neighbours", k14}}, C, 2)->embedding(), Tc);
  INFO("cylinder affine residual at 14 neighbours: self " << hself << ", others " << hothers);
  CHECK(hself < 0.02);
  CHECK(hself < 2.0 * hothers);
  // Six points (1 + dim + dim(dim+1)/2) are the fewest a patch may have, the point included.
  CHECK(fit_method("hessian_lle", {{"patch", self}, {"neighbours", std::int64_t(6)}}, X, 2)
            ->embedding()
            .is_finite());
  CHECK_THROWS_AS(
      fit_method("hessian_lle", {{"patch", self}, {"neighbours", std::int64_t(5)}}, X, 2),
      MethodError);
}

TEST_CASE("local alignment patches: the point itself, or only its neighbours", "[manifold][ltsa]") {
  // A point far off the sheet is in no other point's 5 nearest: with patch: others nothing
  // places it (refused, naming the fix); with patch: self its own patch does.
  Rng rng(3);
  arma::mat X = rng.randu(3, 60);
  X.row(2) *= 0.01;
  X.col(0) = arma::vec{0.5, 0.5, 3.0};
  CHECK_THROWS_AS(
      fit_method("ltsa", {{"neighbours", std::int64_t(5)}, {"patch", std::string("others")}}, X, 2),
      MethodError);
  CHECK(fit_method("ltsa", {{"neighbours", std::int64_t(5)}, {"patch", std::string("self")}}, X, 2)
            ->embedding()
            .is_finite());
}

TEST_CASE("local alignment methods refuse a graph in pieces", "[manifold][ltsa]") {
  Rng rng(9);
  arma::mat X = rng.randn(3, 40);
  X.cols(20, 39) += 100.0;
  CHECK_THROWS_AS(fit_method("ltsa", {{"neighbours", std::int64_t(5)}}, X, 2), MethodError);
}

TEST_CASE("hessian_lle refuses a coordinate that lives on a few points",
          "[manifold][hessian_lle]") {
  // The quarter cylinder of the cases above. With patch: self at 10, 12 and 20 neighbours, four
  // points 0.02-0.06 apart (median nearest-neighbour distance 0.077) always share their patches,
  // and a wiggle on them has less Hessian energy (5.9e-6 at k = 12) than the curvature gives the
  // height coordinate: that vector came out as the second coordinate (participation ratio 2.1
  // points against about 165 for a coordinate; affine residual 0.70). A dense LAPACK solve of the
  // same M gives the same vectors; scikit-learn's 'hessian' (its patches are the k nearest
  // others) has residuals 0.009-0.034 at 10-20 neighbours on these points, as patch: others here.
  const auto [T, X, C, Tc] = plane_and_cylinder();
  const ParamValue self = std::string("self");
  for (const std::int64_t k : {10, 12, 20}) {
    INFO("neighbours " << k);
    try {
      fit_method("hessian_lle", {{"patch", self}, {"neighbours", k}}, C, 2);
      FAIL("a spurious coordinate was not refused");
    } catch (const MethodError& e) {
      const std::string what = e.what();
      CHECK(what.find("is a wiggle on about") != std::string::npos);
      CHECK(what.find("'neighbours'") != std::string::npos);
      CHECK(what.find("patch: others") != std::string::npos);
    }
    // scikit-learn's patches on the same points: a clean embedding, not refused.
    const double res = affine_residual(
        fit_method("hessian_lle", {{"neighbours", ParamValue(k)}}, C, 2)->embedding(), Tc);
    CHECK(res < 0.05);
  }
  // Where no such group forms (14 with patch: self), every coordinate spreads over the points.
  const arma::mat Y =
      fit_method("hessian_lle", {{"patch", self}, {"neighbours", std::int64_t(14)}}, C, 2)
          ->embedding();
  for (arma::uword j = 0; j < 2; ++j) {
    const arma::rowvec y2 = arma::square(Y.row(j));
    CHECK(arma::accu(y2) * arma::accu(y2) / arma::accu(arma::square(y2)) > 100.0);
  }
  CHECK(affine_residual(Y, Tc) < 0.02);
}
