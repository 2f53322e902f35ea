#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/dijkstra.hpp"
#include "methods/manifold/isomap/isomap.hpp"
#include "tests/unit/manifold_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("dijkstra agrees with Floyd-Warshall on a random sparse graph", "[manifold][isomap]") {
  Rng rng(61);
  const arma::uword n = 40;
  arma::mat W(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = i + 1; j < n; ++j)
      if (rng.uniform() < 0.08) W(i, j) = W(j, i) = 0.1 + rng.uniform();
  arma::mat F(n, n);
  F.fill(arma::datum::inf);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      if (i == j)
        F(i, j) = 0;
      else if (W(i, j) > 0)
        F(i, j) = W(i, j);
  for (arma::uword k = 0; k < n; ++k)
    for (arma::uword i = 0; i < n; ++i)
      for (arma::uword j = 0; j < n; ++j) F(i, j) = std::min(F(i, j), F(i, k) + F(k, j));
  const arma::mat D = all_pairs_shortest_paths(arma::sp_mat(W));
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) {
      if (std::isinf(F(i, j)))
        CHECK(std::isinf(D(i, j)));
      else
        CHECK(D(i, j) == Approx(F(i, j)).margin(1e-12));
    }
  arma::uword nc = 0;
  const arma::uvec lab = connected_components(arma::sp_mat(W), nc);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) CHECK((lab(i) == lab(j)) == std::isfinite(F(i, j)));
}

TEST_CASE("isomap unrolls the swiss roll", "[manifold][isomap]") {
  Rng rng(62);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 1000);
  auto m = fit_method("isomap", {{"neighbours", std::int64_t(10)}}, X, 2);
  // Training points map back exactly in exact arithmetic; Lanczos eigenvectors carry ~1e-8
  // relative residuals.
  check_unrolls_roll(*m, X, truth, 1e-6, rng, 200);
}

TEST_CASE("isomap epsilon graph and disconnected graphs", "[manifold][isomap]") {
  Rng rng(63);
  // Two separate clusters on a line: disconnected for small k.
  arma::mat X(2, 40);
  for (arma::uword i = 0; i < 40; ++i) {
    X(0, i) = (i < 20 ? 0.0 : 100.0) + 0.1 * i;
    X(1, i) = 0.01 * rng.normal();
  }
  try {
    fit_method("isomap", {{"neighbours", std::int64_t(3)}, {"disconnected", std::string("error")}},
               X, 1);
    FAIL("expected a MethodError");
  } catch (const MethodError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("neighbours=3") != std::string::npos);
    CHECK(msg.find("2 connected components") != std::string::npos);
  }
  auto b = fit_method(
      "isomap", {{"neighbours", std::int64_t(3)}, {"disconnected", std::string("connect")}}, X, 1);
  // Along a line the geodesics are the distances, so the 1-D embedding is the x coordinate.
  CHECK(abs_corr(b->embedding().row(0), X.row(0)) > 0.999);
  CHECK_THROWS_AS(fit_method("isomap",
                             {{"graph", std::string("epsilon")},
                              {"epsilon", 0.5},
                              {"disconnected", std::string("error")}},
                             X, 1),
                  MethodError);
  auto e =
      fit_method("isomap", {{"graph", std::string("epsilon")}, {"epsilon", 0.5}}, X.cols(0, 19), 1);
  CHECK(abs_corr(e->embedding().row(0), X(0, arma::span(0, 19))) > 0.999);
  CHECK(arma::abs(e->transform(X.cols(0, 19)) - e->embedding()).max() < 1e-9);
}

TEST_CASE("landmark isomap with every point a landmark is full isomap", "[manifold][isomap]") {
  Rng rng(64);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 300);
  const std::int64_t n = X.n_cols;
  auto full = fit_method("isomap", {{"neighbours", std::int64_t(8)}}, X, 3);
  auto lm = fit_method("isomap", {{"neighbours", std::int64_t(8)}, {"landmarks", n}}, X, 3);
  const arma::mat Yf = full->embedding(), Yl = lm->embedding();
  const double scale = arma::abs(Yf).max();
  CHECK(drbench::testing::max_diff_up_to_sign(Yl, Yf) < 1e-8 * scale);
  // Triangulation of new points is Gower's formula when the landmarks are all points.
  const auto [Xn, tn] = drbench::testing::swiss_roll(rng, 50);
  CHECK(drbench::testing::max_diff_up_to_sign(lm->transform(Xn), full->transform(Xn)) <
        1e-8 * scale);
  CHECK(arma::abs(lm->transform(X) - Yl).max() < 1e-9 * scale);
}

TEST_CASE("landmark isomap unrolls the swiss roll from 60 landmarks", "[manifold][isomap]") {
  Rng rng(65);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 1500);
  auto m = fit_method("isomap", {{"neighbours", std::int64_t(10)}, {"landmarks", std::int64_t(60)}},
                      X, 2);
  const auto& iso = dynamic_cast<const Isomap&>(*m);
  CHECK(iso.landmarks().n_elem == 60);
  CHECK(iso.landmark_geodesics().n_rows == X.n_cols);
  CHECK(iso.landmark_geodesics().n_cols == 60);
  CHECK(iso.geodesics_sq().is_empty());  // no n x n matrix
  // A landmark's own triangulated position equals its landmark-MDS position, and a training
  // point is reproduced by the out-of-sample map.
  check_unrolls_roll(*m, X, truth, 1e-9, rng, 200);
}

TEST_CASE("landmark isomap refuses more landmarks than points, and dims >= landmarks",
          "[manifold][isomap]") {
  Rng rng(66);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 50);
  try {
    fit_method("isomap", {{"landmarks", std::int64_t(51)}}, X, 2);
    FAIL("expected a MethodError");
  } catch (const MethodError& e) {
    CHECK_THAT(e.what(), Catch::Contains("landmarks=51"));
    CHECK_THAT(e.what(), Catch::Contains("fix: landmarks <= 50"));
  }
  const MethodInfo& info = Registry::instance().get("isomap");
  ParamSet ps;
  ps.set("landmarks", std::int64_t(5));
  CHECK(info.dim_limit(DataShape{50, 3, 0}, info.complete(ps)) == 4);
}

TEST_CASE("landmark isomap, lle and laplacian eigenmaps do not depend on the thread count",
          "[manifold][isomap][lle][laplacian_eigenmaps]") {
  Rng rng(67);
  const auto [X, truth] = drbench::testing::swiss_roll(rng, 2500);  // the sparse paths
  const std::map<std::string, std::map<std::string, ParamValue>> methods = {
      {"isomap", {{"landmarks", std::int64_t(100)}}}, {"lle", {}}, {"laplacian_eigenmaps", {}}};
  for (const auto& [name, given] : methods) {
    const MethodInfo& info = Registry::instance().get(name);
    ParamSet ps;
    for (const auto& [k, v] : given) ps.set(k, v);
    const ParamSet p = info.complete(ps);
    Rng r1(3), r3(3);
    const auto a = info.fit(p, FitInput{X, nullptr, 0, 2, r1, nullptr, nullptr, {}, 1});
    const auto b = info.fit(p, FitInput{X, nullptr, 0, 2, r3, nullptr, nullptr, {}, 3});
    INFO(name);
    CHECK(arma::approx_equal(a->embedding(), b->embedding(), "absdiff", 0.0));
  }
}
