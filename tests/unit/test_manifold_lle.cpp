#include <catch2/catch.hpp>

#include <string>

#include "framework/core/error.hpp"
#include "tests/unit/manifold_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::max_diff_up_to_sign;

TEST_CASE("lle matches scikit-learn's dense LLE", "[manifold][lle]") {
  // Fixture from scripts/make_lle_fixture.py: rows 0-2 are X, rows 3-4 sklearn's embedding.
  const arma::mat F = drbench::testing::sklearn_fixture("lle_sklearn.txt");
  const arma::mat X = F.rows(0, 2), ref = F.rows(3, 4);
  auto m = fit_method("lle", {{"neighbours", std::int64_t(8)}, {"ridge", 1e-3}}, X, 2);
  // sklearn returns unit-norm eigenvectors; drbench scales them to Y Y'/n = I.
  const arma::mat Y = m->embedding() / std::sqrt(double(X.n_cols));
  CHECK(max_diff_up_to_sign(Y, ref) < 1e-6);
}

TEST_CASE("lle constraints and out-of-sample map", "[manifold][lle]") {
  Rng rng(71);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 400);
  auto m = fit_method("lle", {{"neighbours", std::int64_t(12)}}, X, 2);
  const arma::mat Y = m->embedding();
  const double n = Y.n_cols;
  CHECK(arma::abs(Y * Y.t() / n - arma::eye(2, 2)).max() < 1e-8);
  CHECK(arma::abs(arma::sum(Y, 1)).max() < 1e-8 * n);
  CHECK(arma::abs(m->transform(X) - Y).max() == 0.0);
  // A point off the training set gets reconstruction weights from its own neighbours; for a point
  // halfway between two neighbouring training points the map lands between their embeddings'
  // extremes.
  const arma::vec mid = 0.5 * (X.col(0) + X.col(1));
  const arma::vec ym = m->transform(mid);
  CHECK(ym.is_finite());
  CHECK(arma::abs(ym).max() <= arma::abs(Y).max());
  CHECK_THROWS_AS(fit_method("lle", {}, X.cols(0, 2), 2), MethodError);
}
