// SMACOF (metric and non-metric MDS): the stress gradient against finite differences, the
// Guttman transform as the gradient step it is, scikit-learn's smacof from the same start
// (scripts/make_smacof_fixture.py), the isotonic regression against hand-checked cases, and
// non-metric MDS recovering a configuration from distances it sees only through their order, and
// the out-of-sample map: duplicates land on their training point, exactly Euclidean new points at
// their true place, and each new point's stress never increases over its iterations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/core/trace.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/manifold/smacof/smacof.hpp"
#include "tests/unit/manifold_helpers.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::procrustes_residual;

TEST_CASE("smacof stress gradient matches finite differences", "[manifold][smacof]") {
  Rng rng(8);
  const arma::mat X = rng.randn(4, 15);
  const arma::mat Dhat = arma::sqrt(sq_distances(X));
  for (const double scale : {0.1, 1.0, 10.0}) {
    INFO("scale " << scale);
    FunctionObjective obj([&](const arma::vec& v, arma::vec* g) {
      const arma::mat Y = arma::reshape(v, 2, 15);
      arma::mat G;
      const double f = raw_stress(Y, Dhat, g ? &G : nullptr);
      if (g) *g = arma::vectorise(G);
      return f;
    });
    const arma::vec y0 = arma::vectorise(scale * rng.randn(2, 15));
    // The step follows the configuration's scale: |y_i - y_j| is not smooth on the scale of a
    // step comparable to the distances themselves.
    CHECK(check_gradient(obj, y0, 1e-3 * std::min(scale, 1.0)).max_rel_error < 1e-6);
    // For a centred configuration the Guttman transform is the gradient step of length 1/(2n)
    // (de Leeuw 1988), and it does not increase the stress.
    arma::mat Y = arma::reshape(y0, 2, 15);
    Y.each_col() -= arma::mean(Y, 1);
    arma::mat G;
    const double before = raw_stress(Y, Dhat, &G);
    const arma::mat Yn = guttman_transform(Y, Dhat);
    CHECK(arma::abs(Yn - (Y - G / 30.0)).max() < 1e-10 * (1 + arma::abs(Y).max()));
    CHECK(raw_stress(Yn, Dhat, nullptr) <= before);
  }
}

TEST_CASE("smacof matches scikit-learn's smacof from the same start", "[manifold][smacof]") {
  const arma::mat F = drbench::testing::sklearn_fixture("smacof_sklearn.txt");
  const arma::mat X = F.rows(0, 4), start = F.rows(5, 6), ref = F.rows(7, 8);
  Smacof m(SmacofSetting{true, 60, 0.0});
  m.fit_from(X, start, nullptr);
  CHECK(arma::abs(m.embedding() - ref).max() < 1e-9);
  CHECK(std::abs(m.stress() - F(9, 0)) < 1e-9 * F(9, 0));
  // From the classical start, the default run ends no worse than scikit-learn's best of four
  // random starts (to 1%).
  Trace trace;
  auto fitted = fit_method("smacof", {}, X, 2, nullptr, 0, &trace);
  const double stress = dynamic_cast<const Smacof&>(*fitted).stress();
  CHECK(stress < 1.01 * F(9, 1));
  for (std::size_t r = 1; r < trace.rows.size(); ++r)
    CHECK(trace.rows[r].objective <= trace.rows[r - 1].objective * (1 + 1e-12));
}

TEST_CASE("isotonic regression pools adjacent violators", "[manifold][smacof]") {
  CHECK(arma::approx_equal(isotonic_regression(arma::vec{1, 3, 2, 4}), arma::vec{1, 2.5, 2.5, 4},
                           "absdiff", 1e-15));
  CHECK(arma::approx_equal(isotonic_regression(arma::vec{5, 4, 3, 2, 1}),
                           arma::vec(5, arma::fill::value(3.0)), "absdiff", 1e-15));
  CHECK(arma::approx_equal(isotonic_regression(arma::vec{1, 2, 3}), arma::vec{1, 2, 3}, "absdiff",
                           0.0));
  CHECK(arma::approx_equal(isotonic_regression(arma::vec{2, 1, 4, 3, 5}),
                           arma::vec{1.5, 1.5, 3.5, 3.5, 5}, "absdiff", 1e-15));
}

TEST_CASE("non-metric smacof recovers a planar configuration", "[manifold][smacof]") {
  Rng rng(13);
  // A 2-D configuration placed linearly (a similarity) in 6-D: its distances' order determines it
  // up to similarity; non-metric MDS finds it with near-zero stress.
  const arma::mat T = rng.randn(2, 30);
  arma::mat Q, R;
  arma::qr_econ(Q, R, rng.randn(6, 2));
  const arma::mat X = 3.0 * Q * T;
  auto m = fit_method(
      "smacof", {{"metric", false}, {"tolerance", 0.0}, {"iterations", std::int64_t(500)}}, X, 2);
  arma::mat Y = m->embedding();
  // Compare shapes: both centred and scaled to unit Frobenius norm.
  auto normalise = [](arma::mat A) {
    A.each_col() -= arma::mean(A, 1);
    return arma::mat(A / arma::norm(A, "fro"));
  };
  CHECK(procrustes_residual(normalise(Y), normalise(T)) < 0.02);
  CHECK(dynamic_cast<const Smacof&>(*m).stress() < 1e-3 * 0.5 * 30 * 29);
}

TEST_CASE("smacof maps a duplicate of a training point onto its embedding", "[manifold][smacof]") {
  Rng rng(21);
  const arma::mat X = rng.randn(5, 25);
  const arma::mat Delta = arma::sqrt(sq_distances(X));
  // A configuration converged until it is a fixed point of the Guttman transform, hence of every
  // point's own transform, which a duplicate starts from (its nearest training point).
  arma::mat Y = rng.randn(2, 25);
  for (int it = 0; it < 20000; ++it) Y = guttman_transform(Y, Delta);
  REQUIRE(arma::abs(guttman_transform(Y, Delta) - Y).max() < 1e-10);
  Smacof m(SmacofSetting{true, 1, 0.0});
  m.fit_from(X, Y, nullptr);
  const arma::uvec picks{0, 7, 24};
  CHECK(arma::abs(m.transform(X.cols(picks)) - m.embedding().cols(picks)).max() < 1e-6);
}

TEST_CASE("smacof places exactly Euclidean new points at their true position",
          "[manifold][smacof]") {
  Rng rng(22);
  const arma::mat X = 2.0 * rng.randu(2, 40) - 1.0;
  const arma::mat Xnew = 1.6 * rng.randu(2, 12) - 0.8;
  auto m = fit_method("smacof", {}, X, 2);
  const arma::mat Y = m->embedding();
  // The training embedding is X up to a rigid motion: recover it (orthogonal Procrustes) and
  // carry the new points' true positions through it.
  const arma::vec mx = arma::mean(X, 1), my = arma::mean(Y, 1);
  arma::mat U, V;
  arma::vec s;
  arma::svd(U, s, V, (Y.each_col() - my) * (X.each_col() - mx).t());
  const arma::mat R = U * V.t();
  const arma::mat fit = (R * (X.each_col() - mx)).eval().each_col() + my;
  REQUIRE(arma::abs(fit - Y).max() < 1e-9);
  const arma::mat expected = (R * (Xnew.each_col() - mx)).eval().each_col() + my;
  CHECK(arma::abs(m->transform(Xnew) - expected).max() < 1e-6);
}

TEST_CASE("smacof's placement of a new point never increases its stress", "[manifold][smacof]") {
  Rng rng(23);
  const arma::mat Y = rng.randn(2, 30);
  for (int trial = 0; trial < 5; ++trial) {
    // Targets no planar point fits exactly: distances from a point in 6-D to a 6-D configuration.
    const arma::mat X = rng.randn(6, 30);
    arma::mat diff = X.each_col() - arma::vec(rng.randn(6, 1));
    const arma::vec dhat = arma::sqrt(arma::sum(arma::square(diff), 0)).t();
    std::vector<double> stresses;
    place_point(Y, dhat, 200, &stresses);
    REQUIRE(stresses.size() > 2);
    for (std::size_t r = 1; r < stresses.size(); ++r)
      CHECK(stresses[r] <= stresses[r - 1] * (1 + 1e-12));
    CHECK(stresses.back() < stresses.front());
  }
}
