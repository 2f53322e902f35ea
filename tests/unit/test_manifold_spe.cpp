// Stochastic proximity embedding, which has no reference implementation on Debian: one pair's
// update is -lambda/4 times the gradient of that pair's squared distance error (checked by finite
// differences), the cycles drive the stress down, and a planar configuration's distances come
// back.
#include <catch2/catch.hpp>

#include <cmath>

#include "framework/core/trace.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/optim/grad_check.hpp"
#include "framework/optim/objective.hpp"
#include "methods/manifold/spe/spe.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

namespace {

// Kruskal's stress-1 of the embedding Y against the input distances of X, over every pair.
double stress1(const arma::mat& X, const arma::mat& Y) {
  const arma::mat R = arma::sqrt(sq_distances(X)),
                  D = arma::sqrt(arma::clamp(sq_distances(Y), 0.0, arma::datum::inf));
  return std::sqrt(arma::accu(arma::square(D - R)) / arma::accu(arma::square(R)));
}

}  // namespace

TEST_CASE("spe's pair update steps down the pair's stress gradient", "[manifold][spe]") {
  Rng rng(3);
  for (const double r : {0.2, 1.0, 4.0}) {
    const arma::vec yj = rng.randn(3, 1);
    const arma::vec yi0 = rng.randn(3, 1);
    // g(y_i) = (|y_i - y_j| - r)^2, the pair's term of the raw stress.
    FunctionObjective pair([&](const arma::vec& yi, arma::vec* g) {
      const double d = arma::norm(yi - yj);
      if (g) *g = 2.0 * (d - r) * (yi - yj) / d;
      return (d - r) * (d - r);
    });
    const GradCheck c = check_gradient(pair, yi0);
    CHECK(c.max_rel_error < 1e-6);
    arma::vec yi = yi0, yjm = yj;
    const double lambda = 0.7;
    spe_pair_update(yi.memptr(), yjm.memptr(), 3, r, lambda);
    CHECK(arma::abs((yi - yi0) - (-lambda / 4.0) * c.numeric).max() < 1e-8);
    CHECK(arma::abs((yjm - yj) + (yi - yi0)).max() < 1e-15);  // equal and opposite
    // lambda = 1 puts the pair at exactly distance r.
    arma::vec a = yi0, b = yj;
    spe_pair_update(a.memptr(), b.memptr(), 3, r, 1.0);
    CHECK(arma::norm(a - b) == Approx(r).epsilon(1e-9));
  }
}

TEST_CASE("spe lowers the stress and recovers a planar configuration", "[manifold][spe]") {
  Rng rng(21);
  arma::mat Q, R;
  arma::qr_econ(Q, R, rng.randn(5, 5));
  const arma::mat X = Q.head_cols(2) * (2.0 * rng.randn(2, 80)) + 1.0;
  Trace trace;
  auto m = fit_method("spe", {}, X, 2, nullptr, 0, &trace);
  REQUIRE(trace.rows.size() == 100);
  // The stress the cycles decrease: far below the random start's after the first cycles, and
  // never markedly up across the run's last half as lambda falls.
  CHECK(trace.rows.back().objective < 1e-3 * trace.rows.front().objective + 1e-6);
  for (std::size_t r = 60; r < trace.rows.size(); ++r)
    CHECK(trace.rows[r].objective <= 1.5 * trace.rows[50].objective + 1e-9);
  // Every distance of the plane comes back (a 2-D configuration is exactly embeddable in 2-D).
  CHECK(stress1(X, m->embedding()) < 0.01);
  // Same seed, same embedding.
  auto again = fit_method("spe", {}, X, 2);
  CHECK(arma::approx_equal(again->embedding(), m->embedding(), "absdiff", 0.0));
  // The neighbourhood variant (pairs beyond the mean input distance only push apart) keeps the
  // distances within the radius (measured: stress-1 0.002 there, 0.03 over all pairs; with
  // radius 0.5 and 100 cycles this start folds, 0.17 within the radius).
  auto local = fit_method("spe", {{"radius", 1.0}, {"iterations", std::int64_t(300)}}, X, 2);
  const arma::mat Rx = arma::sqrt(sq_distances(X));
  const arma::mat D =
      arma::sqrt(arma::clamp(sq_distances(local->embedding()), 0.0, arma::datum::inf));
  const arma::uvec near = arma::find(Rx < arma::mean(arma::vectorise(Rx)) && Rx > 0);
  CHECK(std::sqrt(arma::accu(arma::square(D(near) - Rx(near))) /
                  arma::accu(arma::square(Rx(near)))) < 0.01);
  CHECK(stress1(X, local->embedding()) < 0.1);
}
