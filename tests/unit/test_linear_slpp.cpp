#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/graph_weights.hpp"
#include "linear_support.hpp"
#include "methods/linear/slpp/slpp.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("same-class weights connect exactly the same-label pairs", "[linear][slpp]") {
  Rng rng(51);
  auto [X, y] = blob_problem(rng, 3, 3, 7, 2.0);
  const arma::mat D2 = sq_distances(X);
  const HeatGraph b = same_class_weights(X, y, ClassWeight::Binary, keywords::KernelWidth{});
  const HeatGraph h = same_class_weights(X, y, ClassWeight::Heat, {std::sqrt(0.75), false});
  CHECK(h.t == Approx(1.5).epsilon(1e-15));
  for (arma::uword i = 0; i < y.n_elem; ++i)
    for (arma::uword j = 0; j < y.n_elem; ++j) {
      const bool same = y(i) == y(j) && i != j;
      CHECK(b.W(i, j) == (same ? 1.0 : 0.0));
      CHECK(h.W(i, j) == Approx(same ? std::exp(-D2(i, j) / h.t) : 0.0).margin(1e-15));
    }
}

TEST_CASE("slpp matches the scipy generalized eigensolution", "[linear][slpp]") {
  auto [X, y] = fixture_problem();
  auto m = fit_method("slpp", X, &y, 3, 3, ridge(0.0));
  check_fixture_solution<Slpp>(*m, "slpp", "absdiff", 1e-9);
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
}

TEST_CASE("slpp needs labels and pulls classes together", "[linear][slpp]") {
  Rng rng(52);
  auto [X, y] = blob_problem(rng, 8, 4, 20, 2.0);
  CHECK_THROWS_AS(fit_method("slpp", X, nullptr, 0, 2), MethodError);
  ParamSet p;
  p.set("weights", std::string("binary"));
  auto m = fit_method("slpp", X, &y, 4, 3, p);
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
  // Within-class spread relative to total spread is smaller than in the input space.
  auto ratio = [&](const arma::mat& Z) {
    double within = 0.0;
    for (arma::uword c = 0; c < 4; ++c) {
      const arma::mat Zc = Z.cols(arma::find(y == c));
      within += arma::accu(arma::var(Zc, 1, 1)) * Zc.n_cols;
    }
    return within / (arma::accu(arma::var(Z, 1, 1)) * Z.n_cols);
  };
  CHECK(ratio(m->embedding()) < ratio(X));
}

TEST_CASE("slpp: the streamed class quadratics equal the stored graph's", "[linear][slpp]") {
  Rng rng(53);
  auto [X, y] = blob_problem(rng, 6, 3, 300, 2.0);  // 300 a class: more than one 256-column block
  for (ClassWeight kind : {ClassWeight::Heat, ClassWeight::Binary}) {
    const keywords::KernelWidth width{0.7, true};
    const HeatGraph g = same_class_weights(X, y, kind, width);
    const arma::mat Z = 0.5 * X.rows(0, 3);  // any linear image of the data
    const ClassQuadratics q = same_class_quadratics(X, Z, y, kind, width);
    if (kind == ClassWeight::Heat) CHECK(q.t == Approx(g.t).epsilon(1e-12));
    const arma::mat ZDZ = degree_quadratic(Z, g.W), ZLZ = laplacian_quadratic(Z, g.W);
    CHECK(arma::abs(q.ZDZ - ZDZ).max() < 1e-10 * arma::abs(ZDZ).max());
    CHECK(arma::abs(q.ZLZ - ZLZ).max() < 1e-10 * arma::abs(ZDZ).max());
    // The method on either path: the same projection up to sign.
    const keywords::KernelWidth w = width;
    Slpp stored(kind, w, 1.0, 1e-8), streamed(kind, w, 1.0, 1e-8, 0.0);
    Rng r1(1), r2(1);
    stored.fit(FitInput{X, &y, 3, 2, r1, nullptr});
    streamed.fit(FitInput{X, &y, 3, 2, r2, nullptr});
    CHECK(signed_column_diff(streamed.projection(), stored.projection()) <
          1e-7 * arma::abs(stored.projection()).max());
  }
}
