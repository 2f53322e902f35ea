// The Levina-Bickel MLE of intrinsic dimension on data of known dimension, and the review's
// generators (shapes, labels, the manifolds' own equations).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "framework/core/rng.hpp"
#include "framework/data/generators.hpp"
#include "framework/eval/intrinsic_dim.hpp"

using namespace drbench;

TEST_CASE("MLE intrinsic dimension recovers known dimensions", "[eval][intrinsic_dim]") {
  Rng rng(17);
  for (const arma::uword m : {1u, 2u, 3u, 5u}) {
    INFO("dimension " << m);
    // Uniform in an m-cube, rotated into 12-D.
    arma::mat Q, R;
    arma::qr_econ(Q, R, rng.randn(12, m));
    const arma::mat X = Q * rng.randu(m, 2000);
    const double est = mle_intrinsic_dimension(X);
    CHECK(std::abs(est - double(m)) < 0.1 * double(m) + 0.1);
  }
  // A curved 2-D manifold: the swiss roll.
  const Dataset roll = generate_dataset("swiss_roll", {{"n", std::int64_t(2000)}}, 3);
  CHECK(std::abs(mle_intrinsic_dimension(roll.X) - 2.0) < 0.2);
  CHECK_THROWS_AS(mle_intrinsic_dimension(roll.X, 1, 12), std::invalid_argument);
  CHECK_THROWS_AS(mle_intrinsic_dimension(roll.X.cols(0, 9), 6, 12), std::invalid_argument);
}

TEST_CASE("the review's generators follow their equations", "[data][generators]") {
  const std::map<std::string, ParamValue> clean = {{"n", std::int64_t(500)}, {"noise", 0.0}};
  const Dataset helix = generate_dataset("helix", clean, 1);
  REQUIRE(helix.X.n_rows == 3);
  const arma::rowvec t = generator_latent("helix", clean, 1);
  CHECK(std::abs(t(499) - 2 * arma::datum::pi) < 1e-12);
  CHECK(arma::abs(helix.X.row(2) - arma::sin(8.0 * t)).max() < 1e-12);
  const arma::rowvec r = arma::sqrt(arma::square(helix.X.row(0)) + arma::square(helix.X.row(1)));
  CHECK(arma::abs(r - (2.0 + arma::cos(8.0 * t))).max() < 1e-12);

  const Dataset peaks = generate_dataset("twin_peaks", clean, 2);
  const arma::mat xy = peaks.X.rows(0, 1);
  CHECK(arma::abs(peaks.X.row(2) -
                  10.0 * arma::sin(arma::datum::pi * xy.row(0)) % arma::tanh(3.0 * xy.row(1)))
            .max() < 1e-12);
  CHECK(xy.min() >= -1.0);
  CHECK(xy.max() <= 1.0);

  const arma::mat T = generator_latent("broken_swiss_roll", clean, 3);
  const arma::rowvec u = (T.row(0) / (1.5 * arma::datum::pi) - 1.0) / 2.0;
  // The gap: no point with u in (0.4, 0.6); half the points on each side.
  CHECK(arma::accu(u > 0.4 && u < 0.6) == 0);
  CHECK(arma::accu(u <= 0.4) == 250);
  CHECK(T.row(1).max() <= 30.0);

  // The review's unbroken roll (the toolbox's 'swiss'): t over all of [1.5 pi, 4.5 pi], 30 high,
  // and the toolbox's checkerboard rem(round(t / 2) + round(height / 12), 2).
  const std::map<std::string, ParamValue> board_roll = {
      {"n", std::int64_t(500)}, {"noise", 0.0}, {"labels", std::string("checkerboard")}};
  const Dataset roll = generate_dataset("swiss_roll_review", board_roll, 6);
  const arma::mat R = generator_latent("swiss_roll_review", board_roll, 6);
  const arma::rowvec v = (R.row(0) / (1.5 * arma::datum::pi) - 1.0) / 2.0;
  CHECK(arma::accu(v > 0.4 && v < 0.6) > 50);  // no gap
  CHECK(R.row(1).max() > 25.0);
  CHECK(R.row(1).max() <= 30.0);
  CHECK(arma::abs(roll.X.row(0) - R.row(0) % arma::cos(R.row(0))).max() < 1e-12);
  CHECK(arma::abs(roll.X.row(1) - R.row(1)).max() == 0.0);
  REQUIRE(roll.n_classes == 2);
  for (arma::uword i = 0; i < 500; ++i) {
    const long s = std::lround(R(0, i) / 2.0) + std::lround(R(1, i) / 12.0);
    CHECK(roll.y(i) == arma::uword(s % 2));
  }

  const Dataset high = generate_dataset("high_dim", clean, 4);
  REQUIRE(high.X.n_rows == 10);
  const arma::mat L = generator_latent("high_dim", clean, 4);
  CHECK(arma::abs(high.X.row(9) - L.row(0)).max() == 0.0);
  CHECK(arma::abs(high.X.row(8) - L.row(2) % L.row(3)).max() < 1e-15);
  // Its intrinsic dimension is 5 (the estimate is biased low on 500 points in a 5-cube's image).
  const Dataset big = generate_dataset("high_dim", {{"n", std::int64_t(3000)}, {"noise", 0.0}}, 5);
  CHECK(std::abs(mle_intrinsic_dimension(big.X) - 5.0) < 0.75);

  // The toolbox's checkerboard labels: two classes, both present.
  const Dataset board = generate_dataset(
      "helix", {{"n", std::int64_t(500)}, {"labels", std::string("checkerboard")}}, 1);
  CHECK(board.n_classes == 2);
  CHECK(arma::accu(board.y == 0) > 100);
  CHECK(arma::accu(board.y == 1) > 100);
  // Default labels: equal bins along the first coordinate.
  CHECK(generate_dataset("twin_peaks", clean, 2).n_classes == 4);
}
