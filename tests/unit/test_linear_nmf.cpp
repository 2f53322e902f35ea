// NMF against scikit-learn's NMF (scripts/make_nmf_fixture.py): the same start, solver and stopping
// test give the same factors, iteration count and transform; and the properties the solvers rest
// on (coordinate descent's gradient, its exact one-component step, a non-increasing error).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "framework/core/trace.hpp"
#include "framework/optim/grad_check.hpp"
#include "framework/optim/objective.hpp"
#include "methods/linear/nmf/nmf.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::sklearn_fixture;

TEST_CASE("nmf matches scikit-learn's NMF", "[linear][nmf]") {
  const arma::mat F = sklearn_fixture("nmf_sklearn.txt");
  const arma::mat X = F.rows(0, 7), Xnew = F.submat(8, 0, 15, 9);
  const char* settings[3][2] = {{"cd", "nndsvda"}, {"cd", "nndsvd"}, {"mu", "nndsvda"}};
  for (int b = 0; b < 3; ++b) {
    INFO(settings[b][0] << " " << settings[b][1]);
    const arma::uword s = 16 + 10 * b;
    const arma::mat W = F.rows(s, s + 2), H = F.submat(s + 3, 0, s + 5, 7),
                    T = F.submat(s + 6, 0, s + 8, 9);
    const double error = F(s + 9, 0), iterations = F(s + 9, 1);
    auto m = fit_method(
        "nmf", {{"solver", std::string(settings[b][0])}, {"init", std::string(settings[b][1])}}, X,
        3);
    const auto& nmf = dynamic_cast<const Nmf&>(*m);
    CHECK(double(nmf.iterations_run()) == iterations);
    CHECK(arma::abs(m->embedding() - W).max() < 1e-7 * arma::abs(W).max());
    CHECK(arma::abs(nmf.components() - H).max() < 1e-7 * arma::abs(H).max());
    CHECK(nmf.reconstruction_error() == Approx(error).epsilon(1e-9));
    CHECK(arma::abs(m->transform(Xnew) - T).max() < 1e-6 * arma::abs(T).max());
    CHECK(m->embedding().min() >= 0);
  }
}

TEST_CASE("nmf's coordinate descent follows the loss's gradient", "[linear][nmf]") {
  Rng rng(5);
  const arma::mat X = arma::abs(rng.randn(7, 4));
  const arma::mat H = arma::abs(rng.randn(1, 4)) + 0.1;
  const arma::mat W0 = arma::abs(rng.randn(7, 1)) + 0.5;
  // f(W) = |X - W H|^2 / 2; with one component every coordinate's gradient is independent of the
  // others, so the sweep's violation at an interior W is the gradient's l1 norm.
  FunctionObjective f([&](const arma::vec& w, arma::vec* g) {
    const arma::mat R = X - w * H;
    if (g) *g = -R * H.t();
    return 0.5 * arma::accu(arma::square(R));
  });
  const GradCheck c = check_gradient(f, W0);
  CHECK(c.max_rel_error < 1e-6);
  arma::mat W = W0;
  const double violation = nmf_cd_sweep(W, H * H.t(), X * H.t());
  CHECK(violation == Approx(arma::accu(arma::abs(c.numeric))).epsilon(1e-6));
  // One coordinate per row: the sweep lands on the exact non-negative least-squares solution.
  const arma::mat exact =
      arma::clamp(X * H.t() / arma::as_scalar(H * H.t()), 0.0, arma::datum::inf);
  CHECK(arma::abs(W - exact).max() < 1e-12);
}

TEST_CASE("nmf's error never increases and negative data is refused or shifted", "[linear][nmf]") {
  const arma::mat F = sklearn_fixture("nmf_sklearn.txt");
  const arma::mat X = F.rows(0, 7);
  for (const std::string solver : {"cd", "mu"}) {
    INFO(solver);
    Trace trace;
    fit_method("nmf", {{"solver", solver}, {"tolerance", 0.0}, {"iterations", std::int64_t(60)}}, X,
               3, nullptr, 0, &trace);
    REQUIRE(trace.rows.size() >= 6);
    for (std::size_t r = 1; r < trace.rows.size(); ++r)
      CHECK(trace.rows[r].objective <= trace.rows[r - 1].objective * (1 + 1e-12));
  }
  arma::mat Z = X;
  Z.row(2) -= 5.0;
  CHECK_THROWS_WITH(fit_method("nmf", {}, Z, 3), Catch::Contains("negative: shift"));
  auto shifted = fit_method("nmf", {{"negative", std::string("shift")}}, Z, 3);
  // Only the feature with a negative minimum moves, to start at 0.
  arma::mat moved = Z;
  moved.row(2) -= Z.row(2).min();
  auto plain = fit_method("nmf", {}, moved, 3);
  CHECK(arma::abs(shifted->embedding() - plain->embedding()).max() < 1e-12);
  auto fitted = fit_method("nmf", {}, X, 3);
  CHECK_THROWS_WITH(fitted->transform(Z), Catch::Contains("negative"));
}
