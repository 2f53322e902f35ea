// PaCMAP: the loss gradient against finite differences in every weight phase, the weight schedule
// at its phase boundaries, the pair rules (neighbour pairs are the smallest scaled distances,
// mid-near pairs the second nearest of six, further pairs never neighbours), blob separation and
// determinism.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "framework/core/error.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/neighbour/pacmap/pacmap.hpp"
#include "neighbour_helpers.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {}  // namespace

TEST_CASE("PaCMAP loss gradient against finite differences", "[neighbour][pacmap]") {
  Rng rng(1);
  const arma::mat X = rng.randn(5, 40);
  const NeighbourGraph g = neighbour_graph(X, 15, exact_graph());
  pacmap::Pairs p;
  p.nb = pacmap::neighbour_pairs(g.index, g.dist, 5);
  p.mn = pacmap::mid_near_pairs(X, 3, rng);
  p.fp = pacmap::further_pairs(40, p.nb, 5, 10, rng);
  for (int itr : {0, 50, 150, 300})
    for (double scale : {0.01, 1.0, 10.0}) {
      INFO("iteration " << itr << " scale " << scale);
      const pacmap::Weights w = pacmap::weights_at(itr);
      FunctionObjective f([&](const arma::vec& x, arma::vec* grad) {
        const arma::mat Y = arma::reshape(x, 2, 40);
        arma::mat G;
        const double v = pacmap::loss(Y, p, w, grad ? &G : nullptr);
        if (grad) *grad = arma::vectorise(G);
        return v;
      });
      CHECK(check_gradient(f, arma::vectorise(scale * rng.randn(2, 40)), 1e-4).max_rel_error <
            1e-6);
    }
}

TEST_CASE("PaCMAP weight schedule: three phases", "[neighbour][pacmap]") {
  const auto w0 = pacmap::weights_at(0);
  CHECK(w0.nb == 2.0);
  CHECK(w0.mn == 1000.0);
  CHECK(w0.fp == 1.0);
  CHECK(pacmap::weights_at(50).mn == Approx(0.5 * 1000 + 0.5 * 3));
  CHECK(pacmap::weights_at(99).mn == Approx(0.01 * 1000 + 0.99 * 3));
  const auto w1 = pacmap::weights_at(100);
  CHECK((w1.nb == 3.0 && w1.mn == 3.0 && w1.fp == 1.0));
  const auto w2 = pacmap::weights_at(200);
  CHECK((w2.nb == 1.0 && w2.mn == 0.0 && w2.fp == 1.0));
}

TEST_CASE("PaCMAP pairs follow their rules", "[neighbour][pacmap]") {
  Rng rng(2);
  const arma::mat X = rng.randn(4, 120);
  const NeighbourGraph g = neighbour_graph(X, 60, exact_graph());
  const arma::umat nb = pacmap::neighbour_pairs(g.index, g.dist, 10);
  REQUIRE(nb.n_cols == 1200);
  // Scaled distances by brute force: sigma_i = mean distance to the 4th-6th nearest.
  arma::vec sigma(120);
  for (arma::uword i = 0; i < 120; ++i) sigma(i) = arma::mean(g.dist.col(i).subvec(3, 5));
  for (arma::uword i = 0; i < 120; ++i) {
    arma::vec scaled(60);
    for (arma::uword j = 0; j < 60; ++j)
      scaled(j) = std::pow(g.dist(j, i), 2) / (sigma(i) * sigma(g.index(j, i)));
    const arma::uvec order = arma::stable_sort_index(scaled);
    std::set<arma::uword> want, got;
    for (arma::uword e = 0; e < 10; ++e) {
      want.insert(g.index(order(e), i));
      got.insert(nb(1, i * 10 + e));
      CHECK(nb(0, i * 10 + e) == i);
    }
    CHECK(want == got);
  }
  const arma::umat fp = pacmap::further_pairs(120, nb, 10, 20, rng);
  for (arma::uword i = 0; i < 120; ++i) {
    std::set<arma::uword> nbrs, seen;
    for (arma::uword e = 0; e < 10; ++e) nbrs.insert(nb(1, i * 10 + e));
    for (arma::uword e = 0; e < 20; ++e) {
      const arma::uword j = fp(1, i * 20 + e);
      CHECK(j != i);
      CHECK(nbrs.count(j) == 0);
      CHECK(seen.insert(j).second);  // distinct
    }
  }
  // Mid-near: the second nearest of six distinct others is never the nearest of them, so on
  // average it is nearer than a random point but not the nearest neighbour.
  const arma::umat mn = pacmap::mid_near_pairs(X, 5, rng);
  double mean_mn = 0, mean_all = 0;
  for (arma::uword e = 0; e < mn.n_cols; ++e) {
    CHECK(mn(1, e) != mn(0, e));
    mean_mn += arma::norm(X.col(mn(0, e)) - X.col(mn(1, e)));
  }
  for (arma::uword i = 0; i < 120; ++i)
    for (arma::uword j = 0; j < 120; ++j) mean_all += arma::norm(X.col(i) - X.col(j));
  mean_mn /= double(mn.n_cols);
  mean_all /= 120.0 * 119.0;
  CHECK(mean_mn < mean_all);
  CHECK(mean_mn > arma::mean(g.dist.row(0)));
}

TEST_CASE("PaCMAP separates blobs, traces Adam, and is deterministic", "[neighbour][pacmap]") {
  Rng rng(3);
  const auto [X, y] = labelled_blobs(rng, 10, 4, 50, 4.0);
  Trace trace;
  auto m = fit_method("pacmap", {}, X, 2, nullptr, 0, &trace, 5);
  const arma::mat E = m->embedding();
  REQUIRE(E.is_finite());
  CHECK(loo_1nn_error(E, y) == 0.0);
  REQUIRE(trace.rows.size() == 450);
  // The last phase only lowers its own loss (the weights stay fixed from iteration 200 on).
  CHECK(trace.rows.back().objective < trace.rows[200].objective);
  auto m2 = fit_method("pacmap", {}, X, 2, nullptr, 0, nullptr, 5);
  CHECK(arma::approx_equal(m2->embedding(), E, "absdiff", 0.0));
  auto m3 = fit_method("pacmap", {}, X, 2, nullptr, 0, nullptr, 6);
  CHECK(arma::abs(m3->embedding() - E).max() > 1e-6);
  CHECK_THROWS_AS(fit_method("pacmap", {{"neighbours", std::int64_t(199)}}, X, 2), MethodError);
}
