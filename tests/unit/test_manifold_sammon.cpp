#include <catch2/catch.hpp>

#include "framework/linalg/distances.hpp"
#include "methods/manifold/sammon/sammon.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

TEST_CASE("sammon stress gradient and diagonal Hessian match finite differences",
          "[manifold][sammon]") {
  Rng rng(91);
  arma::mat X = rng.randn(4, 15);
  X.col(3) = X.col(2);  // a duplicate pair: left out of the stress
  const arma::mat D = arma::sqrt(sq_distances(X));
  const arma::mat Y = rng.randn(2, 15);
  arma::mat g, h;
  sammon_stress(D, Y, &g, &h);
  const double eps = 1e-6;
  for (arma::uword i = 0; i < Y.n_elem; ++i) {
    arma::mat Yp = Y, Ym = Y;
    Yp(i) += eps;
    Ym(i) -= eps;
    const double fd =
        (sammon_stress(D, Yp, nullptr, nullptr) - sammon_stress(D, Ym, nullptr, nullptr)) /
        (2 * eps);
    CHECK(g(i) == Approx(fd).epsilon(1e-5).margin(1e-9));
    arma::mat gp, gm;
    sammon_stress(D, Yp, &gp, nullptr);
    sammon_stress(D, Ym, &gm, nullptr);
    CHECK(h(i) == Approx((gp(i) - gm(i)) / (2 * eps)).epsilon(1e-4).margin(1e-7));
  }
}

TEST_CASE("sammon lowers the stress of its MDS start monotonically and extends to new points",
          "[manifold][sammon]") {
  Rng rng(92);
  // Points on a curved surface: MDS is not stress-optimal there.
  arma::mat X(3, 80);
  for (arma::uword i = 0; i < 80; ++i) {
    const double a = 3 * rng.uniform(), b = rng.uniform();
    X.col(i) = arma::vec{std::cos(a), std::sin(a), b};
  }
  Trace trace;
  auto m = fit_method("sammon", {{"iterations", std::int64_t(300)}}, X, 2, nullptr, 0, &trace);
  REQUIRE(trace.rows.size() > 2);
  for (std::size_t i = 1; i < trace.rows.size(); ++i)
    CHECK(trace.rows[i].objective < trace.rows[i - 1].objective);
  CHECK(trace.rows.back().objective < 0.8 * trace.rows.front().objective);
  CHECK(trace.rows.back().grad_norm < trace.rows.front().grad_norm);
  const arma::mat Y = m->embedding();
  // A converged training embedding is stationary for each point's own stress.
  CHECK(arma::abs(m->transform(X) - Y).max() < 1e-3 * arma::abs(Y).max());
}
