#include <catch2/catch.hpp>
#include <string>
#include "framework/support/build_info.hpp"

#include "framework/core/rng.hpp"
#include "support/quality_reference.hpp"

using namespace drbench;

TEST_CASE("Trustworthiness and continuity match scikit-learn", "[quality]") {
  // tests/fixtures/quality/ is written by scripts/make_fixtures_quality.py (sklearn 1.2.1).
  const std::string dir = std::string(drbench::source_dir()) + "/tests/fixtures/quality/";
  arma::mat points, expected;
  REQUIRE(points.load(dir + "points.csv", arma::csv_ascii));
  REQUIRE(expected.load(dir + "expected.csv", arma::csv_ascii));
  REQUIRE(points.n_cols == 7);
  const arma::mat high = points.cols(0, 4).t(), low = points.cols(5, 6).t();
  for (arma::uword r = 0; r < expected.n_rows; ++r) {
    const auto k = static_cast<arma::uword>(expected(r, 0));
    INFO("k = " << k);
    CHECK(trustworthiness(high, low, k) == Approx(expected(r, 1)).epsilon(1e-12));
    CHECK(continuity(high, low, k) == Approx(expected(r, 2)).epsilon(1e-12));
  }
}

TEST_CASE("Trustworthiness and continuity on hand-checkable cases", "[quality]") {
  // Six points on a line; the embedding swaps the two ends. With ties going to the lower index,
  // the rank penalties are 3 + 1 + 4 + 3 (trustworthiness) and 3 + 4 + 1 + 3 (continuity), so both
  // are 1 - 2 * 11 / (6 * 1 * (12 - 3 - 1)) = 26/48.
  const arma::mat line = {{0, 1, 2, 3, 4, 5}};
  const arma::mat swapped = {{5, 1, 2, 3, 4, 0}};
  CHECK(trustworthiness(line, swapped, 1) == Approx(26.0 / 48));
  CHECK(continuity(line, swapped, 1) == Approx(26.0 / 48));

  // Any similarity transform keeps every rank: both measures are exactly 1.
  Rng rng(4);
  const arma::mat X = rng.randn(4, 60);
  arma::mat Q, R;
  arma::qr(Q, R, rng.randn(4, 4));
  const arma::mat Y = 3.0 * Q * X + 1.0;
  for (arma::uword k : {1, 7, 29}) {
    CHECK(trustworthiness(X, Y, k) == Approx(1.0).margin(1e-15));
    CHECK(continuity(X, Y, k) == Approx(1.0).margin(1e-15));
  }
  // A random embedding is far from trustworthy.
  CHECK(trustworthiness(X, rng.randn(2, 60), 5) < 0.75);
  CHECK_THROWS(trustworthiness(X, Y, 30));
  CHECK_THROWS(continuity(X, Y.cols(0, 9), 2));
}
