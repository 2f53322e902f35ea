// TriMap: the triplet loss gradient against finite differences, the tempered log, the triplet
// rules (k never an inlier, weights >= 0, three random triplets per point), fewer violated triplets
// after the fit, blob separation and determinism.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "framework/core/error.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/neighbour/trimap/trimap.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("TriMap loss gradient against finite differences", "[neighbour][trimap]") {
  Rng rng(1);
  trimap::Triplets t;
  const arma::uword n = 30, m = 200;
  t.ijk.set_size(3, m);
  t.weights = rng.randu(m, 1) + 0.1;
  for (arma::uword e = 0; e < m; ++e) {
    const arma::uvec p = rng.permutation(n);
    t.ijk.col(e) = p.head(3);
  }
  for (double scale : {0.01, 1.0, 10.0}) {
    INFO("scale " << scale);
    FunctionObjective f([&](const arma::vec& x, arma::vec* grad) {
      const arma::mat Y = arma::reshape(x, 2, n);
      arma::mat G;
      const double v = trimap::loss(Y, t, grad ? &G : nullptr);
      if (grad) *grad = arma::vectorise(G);
      return v;
    });
    CHECK(check_gradient(f, arma::vectorise(scale * rng.randn(2, n)), 1e-4).max_rel_error < 1e-6);
  }
}

TEST_CASE("TriMap tempered log", "[neighbour][trimap]") {
  CHECK(trimap::tempered_log(3.0, 1.0) == Approx(std::log(3.0)));
  CHECK(trimap::tempered_log(4.0, 0.5) == Approx(2.0 * (2.0 - 1.0)));
  CHECK(trimap::tempered_log(1.0, 0.5) == 0.0);
  // Tends to the log as t -> 1.
  CHECK(trimap::tempered_log(5.0, 0.9999) == Approx(std::log(5.0)).epsilon(1e-3));
}

TEST_CASE("TriMap triplets follow their rules, the fit satisfies more of them",
          "[neighbour][trimap]") {
  Rng rng(2);
  const auto [X, y] = labelled_blobs(rng, 8, 4, 50, 4.0);
  Trace trace;
  auto base = fit_method("trimap", {}, X, 2, nullptr, 0, &trace, 3);
  const auto& tm = dynamic_cast<const Trimap&>(*base);
  const trimap::Triplets& t = tm.triplets();
  const arma::uword n = X.n_cols;
  REQUIRE(t.ijk.n_cols == n * (12 * 4 + 3));
  CHECK(t.weights.min() >= 0.0);
  CHECK(t.weights.is_finite());
  for (arma::uword e = 0; e < t.ijk.n_cols; ++e) {
    const arma::uword i = t.ijk(0, e), j = t.ijk(1, e), k = t.ijk(2, e);
    CHECK((i != j && i != k && j != k));
  }
  // kNN triplets: per point, the 12 inliers of its first triplets never appear as k.
  for (arma::uword i = 0; i < n; ++i) {
    std::set<arma::uword> in;
    for (arma::uword e = 0; e < 48; ++e) in.insert(t.ijk(1, i * 48 + e));
    CHECK(in.size() == 12);
    for (arma::uword e = 0; e < 48; ++e) CHECK(in.count(t.ijk(2, i * 48 + e)) == 0);
  }
  // Random triplets: three per point, in point order.
  for (arma::uword e = tm.knn_triplets(); e < t.ijk.n_cols; ++e)
    CHECK(t.ijk(0, e) == (e - tm.knn_triplets()) / 3);
  // The embedding violates fewer triplets than the start and separates the blobs.
  const arma::mat E = base->embedding();
  double viol_end = 0, viol_start = 0;
  trimap::loss(E, t, nullptr, &viol_end);
  trimap::loss(1e-4 * Rng(9).randn(2, n), t, nullptr, &viol_start);
  CHECK(viol_end < 0.5 * viol_start);
  arma::uword wrong = 0;
  for (arma::uword i = 0; i < n; ++i) {
    arma::rowvec d = arma::sum(arma::square(E.each_col() - E.col(i)), 0);
    d(i) = arma::datum::inf;
    wrong += y(arma::index_min(d)) != y(i);
  }
  CHECK(wrong == 0);
  REQUIRE(trace.rows.size() == 400);
  CHECK(trace.rows.back().objective < trace.rows.front().objective);
  auto again = fit_method("trimap", {}, X, 2, nullptr, 0, nullptr, 3);
  CHECK(arma::approx_equal(again->embedding(), E, "absdiff", 0.0));
  CHECK_THROWS_AS(fit_method("trimap", {{"neighbours", std::int64_t(199)}}, X, 2), MethodError);
}
