// Linear-time elastic embedding: the Barnes-Hut objective against the dense one (theta = 0 equals
// it; the error is bounded and shrinks with theta), finite differences of its gradient, the CG
// spectral direction, PCG against a dense solve, graph affinities against the kNN ones, and a fit
// that separates blobs with the same bits on 1 and 2 threads.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/affinity/perplexity.hpp"
#include "framework/eval/knn.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/pcg.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/neighbour/ee/ee.hpp"
#include "methods/neighbour/ee/ee_bh_objective.hpp"
#include "methods/neighbour/ee/ee_objective.hpp"
#include "neighbour_helpers.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

// A sparse symmetric w+ (each point tied to a few random others), summing to one.
arma::sp_mat random_sparse_weights(Rng& rng, arma::uword n, arma::uword per_point) {
  arma::mat W(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword t = 0; t < per_point; ++t) {
      const arma::uword j = static_cast<arma::uword>(rng.uniform() * double(n)) % n;
      if (j != i) W(i, j) = W(j, i) = 0.1 + rng.uniform();
    }
  W /= arma::accu(W);
  return arma::sp_mat(W);
}

// A sparse SPD system matrix: the graph Laplacian of random_sparse_weights plus 1e-3 I.
arma::sp_mat laplacian_plus_ridge(Rng& rng, arma::uword n, arma::uword per_point) {
  const arma::sp_mat W = random_sparse_weights(rng, n, per_point);
  arma::sp_mat M = -W;
  M.diag() += arma::vec(arma::sum(W, 1)) + 1e-3;
  return M;
}

// The dense objective of the same model: w- the squared input distances scaled to sum to one.
EeObjective dense_twin(const arma::sp_mat& Wp, const arma::mat& X, double lambda, arma::uword dim) {
  arma::mat Wm = sq_distances(X);
  Wm.diag().zeros();
  Wm /= arma::accu(Wm);
  return EeObjective(arma::mat(Wp), Wm, lambda, dim);
}

}  // namespace

TEST_CASE("linear-time EE: theta 0 equals the dense objective, finite-difference gradient",
          "[neighbour][ee][ee_bh]") {
  Rng rng(31);
  const arma::uword n = 300;
  const arma::mat X = rng.randn(6, n) + 2.0;  // off-centre: the objective centres it
  const arma::sp_mat Wp = random_sparse_weights(rng, n, 5);
  const double lambda = 50.0;
  for (arma::uword dim : {1u, 2u, 3u}) {
    INFO("dim " << dim);
    EeObjective dense = dense_twin(Wp, X, lambda, dim);
    EeBhObjective bh(Wp, X, lambda, dim, 0.0, 1);
    const arma::vec y = arma::vectorise(rng.randn(dim, n) * 1.5);
    arma::vec gd, gb;
    const double Ed = dense.evaluate(y, &gd), Eb = bh.evaluate(y, &gb);
    CHECK(Eb == Approx(Ed).epsilon(1e-11));
    CHECK(arma::abs(gb - gd).max() < 1e-10 * arma::abs(gd).max());
    // At theta = 0 the estimate is the exact gradient: finite differences of E agree.
    EeBhObjective small(random_sparse_weights(rng, 40, 4), X.cols(0, 39), lambda, dim, 0.0, 1);
    CHECK(check_gradient(small, arma::vectorise(rng.randn(dim, 40)), 1e-4).max_rel_error < 1e-6);
  }
}

TEST_CASE("linear-time EE: Barnes-Hut error bounded and shrinking with theta",
          "[neighbour][ee][ee_bh]") {
  Rng rng(32);
  const arma::uword n = 600;
  const arma::mat X = rng.randn(10, n);
  const arma::sp_mat Wp = random_sparse_weights(rng, n, 5);
  const double lambda = 100.0;
  for (arma::uword dim : {2u, 3u}) {
    INFO("dim " << dim);
    // Spread wide enough that far cells are taken whole but not all beyond the kernel's reach.
    const arma::vec y = arma::vectorise(rng.randn(dim, n) * 3.0);
    EeObjective dense = dense_twin(Wp, X, lambda, dim);
    arma::vec gd;
    const double Ed = dense.evaluate(y, &gd);
    // The repulsive part alone, whose error Barnes-Hut makes.
    EeBhObjective rep0(arma::sp_mat(n, n), X, lambda, dim, 0.0, 1);
    arma::vec gr;
    rep0.evaluate(y, &gr);
    double prev_g = arma::datum::inf, prev_e = arma::datum::inf;
    for (double theta : {1.0, 0.5, 0.25, 0.1}) {
      INFO("theta " << theta);
      EeBhObjective bh(Wp, X, lambda, dim, theta, 1);
      arma::vec gb;
      const double Eb = bh.evaluate(y, &gb);
      const double eg = arma::norm(gb - gd) / arma::norm(gr);
      const double ee = std::abs(Eb - Ed) / std::abs(Ed);
      // Strictly smaller until the walk opens every cell the pruning leaves (then exact).
      CHECK((eg < prev_g || eg < 1e-12));
      CHECK((ee <= prev_e || ee < 1e-12));
      // The input weights vary inside a cell independently of the embedding here (random X), so
      // the monopole's first-order error does not cancel: the worst case for this estimate.
      if (theta <= 0.5) {
        CHECK(eg < 5e-2);
        CHECK(ee < 1e-3);
      }
      if (theta <= 0.25) CHECK(eg < 1e-5);
      prev_g = eg;
      prev_e = ee;
    }
  }
}

TEST_CASE("PCG solves a sparse SPD system like a dense solve", "[ee_bh][linalg]") {
  Rng rng(33);
  const arma::uword n = 200;
  const arma::sp_mat M = laplacian_plus_ridge(rng, n, 4);
  const arma::mat B = rng.randn(n, 2);
  arma::mat X;
  const PcgResult r = pcg_solve(M, B, X, 1e-12, 5000);
  CHECK(r.residual <= 1e-12);
  const arma::mat ref = arma::solve(arma::mat(M), B);
  CHECK(arma::abs(X - ref).max() < 1e-8 * arma::abs(ref).max());
  // Warm-started at the answer it stops at once.
  arma::mat X2 = ref;
  CHECK(pcg_solve(M, B, X2, 1e-6, 5000).iterations == 0);
}

TEST_CASE("PCG with a supplied preconditioner: exact inverse in one step, any SPD one converges",
          "[ee_bh][linalg]") {
  Rng rng(37);
  const arma::uword n = 150;
  const arma::sp_mat M = laplacian_plus_ridge(rng, n, 5);
  const arma::mat B = rng.randn(n, 3);
  const arma::mat Md(M);
  const arma::mat ref = arma::solve(Md, B);
  // M^-1 itself: the first step is the solution.
  const arma::mat Minv = arma::inv_sympd(Md);
  arma::mat X;
  int calls = 0;
  PcgResult r = pcg_solve(M, B, X, 1e-10, 50, [&](const arma::mat& R) {
    ++calls;
    return arma::mat(Minv * R);
  });
  CHECK(r.iterations == 1);
  CHECK(calls == 2);  // the start's residual and the one step's
  CHECK(arma::abs(X - ref).max() < 1e-8 * arma::abs(ref).max());
  // A cruder SPD preconditioner (M's diagonal times 2) reaches the same solution.
  const arma::vec d2 = 2.0 * arma::vec(M.diag());
  X.reset();
  r = pcg_solve(M, B, X, 1e-12, 5000,
                [&](const arma::mat& R) { return arma::mat(R.each_col() / d2); });
  CHECK(r.residual <= 1e-12);
  CHECK(arma::abs(X - ref).max() < 1e-8 * arma::abs(ref).max());
  // The Jacobi overload is this one with diag(M)^-1: the same iterates to the bit.
  arma::mat Xj, Xf;
  const arma::vec inv = 1.0 / arma::vec(M.diag());
  const PcgResult rj = pcg_solve(M, B, Xj, 1e-6, 7);
  const PcgResult rf = pcg_solve(M, B, Xf, 1e-6, 7,
                                 [&](const arma::mat& R) { return arma::mat(R.each_col() % inv); });
  CHECK(rj.iterations == rf.iterations);
  CHECK(arma::abs(Xj - Xf).max() == 0.0);
  // Stopped by the step cap, the start's residual and each step but the last need the
  // preconditioner (after the last nothing would use it), and the reported residual is still the
  // final iterate's.
  arma::mat Xc;
  int capped_calls = 0;
  const PcgResult rc = pcg_solve(M, B, Xc, 1e-14, 3, [&](const arma::mat& R) {
    ++capped_calls;
    return arma::mat(R.each_col() % inv);
  });
  CHECK(rc.iterations == 3);
  CHECK(capped_calls == 3);
  const arma::mat Rc = B - arma::mat(M) * Xc;
  double worst = 0.0;
  for (arma::uword c = 0; c < B.n_cols; ++c)
    worst = std::max(worst, arma::norm(Rc.col(c)) / arma::norm(B.col(c)));
  CHECK(rc.residual == Approx(worst).epsilon(1e-6));
  CHECK(rc.residual > 1e-14);
}

TEST_CASE("linear-time EE: the factored preconditioner", "[neighbour][ee][ee_bh]") {
  Rng rng(38);
  const arma::uword n = 200, dim = 2;
  const arma::mat X = rng.randn(5, n);
  const arma::sp_mat Wp = random_sparse_weights(rng, n, 6);
  const arma::vec y = arma::vectorise(rng.randn(dim, n));
  // Every stored w+ kept (k above every degree): the preconditioner is M itself, so one CG step
  // solves the system, and the direction is the fully converged Jacobi solve's.
  EeBhObjective full(Wp, X, 20.0, dim, 0.5, 1), jac(Wp, X, 20.0, dim, 0.5, 1);
  full.precondition_neighbours = 1000;
  full.cg_iterations = 50;
  full.cg_tol = 1e-10;
  jac.cg_iterations = 10000;
  jac.cg_tol = 1e-13;
  full.factor_spectral(1e-6);
  jac.factor_spectral(1e-6);
  CHECK(full.preconditioner_nonzeros() > 0);
  CHECK(jac.preconditioner_nonzeros() == 0);
  arma::vec g;
  full.evaluate(y, &g);
  const arma::vec pf = full.spectral_direction(g), pj = jac.spectral_direction(g);
  CHECK(full.last_cg_iterations() == 1);
  CHECK(jac.last_cg_iterations() > 5);
  CHECK(arma::abs(pf - pj).max() < 1e-7 * arma::abs(pj).max());
  // Two neighbours per point: a sparser factor than the full one; two preconditioned steps are
  // downhill, and run to convergence they reach the same solution (the preconditioner changes the
  // path, not the system).
  EeBhObjective k2(Wp, X, 20.0, dim, 0.5, 1), k2full(Wp, X, 20.0, dim, 0.5, 1);
  k2.precondition_neighbours = k2full.precondition_neighbours = 2;
  k2.cg_iterations = 2;
  k2full.cg_iterations = 10000;
  k2.cg_tol = k2full.cg_tol = 1e-13;
  k2.factor_spectral(1e-6);
  k2full.factor_spectral(1e-6);
  CHECK(k2.preconditioner_nonzeros() < full.preconditioner_nonzeros());
  CHECK(arma::dot(k2.spectral_direction(g), g) < 0);
  CHECK(k2.last_cg_iterations() == 2);
  const arma::vec pk = k2full.spectral_direction(g);
  CHECK(arma::abs(pk - pj).max() < 1e-7 * arma::abs(pj).max());
}

TEST_CASE("linear-time EE: CG spectral direction is downhill and solves 4 L+ + mu I",
          "[neighbour][ee][ee_bh]") {
  Rng rng(34);
  const arma::uword n = 150, dim = 2;
  const arma::mat X = rng.randn(5, n);
  const arma::sp_mat Wp = random_sparse_weights(rng, n, 6);
  EeBhObjective bh(Wp, X, 20.0, dim, 0.5, 1);
  bh.cg_iterations = 10000;
  bh.cg_tol = 1e-12;
  const double mu = bh.factor_spectral(1e-6);
  const arma::vec y = arma::vectorise(rng.randn(dim, n));
  arma::vec g;
  bh.evaluate(y, &g);
  const arma::vec p = bh.spectral_direction(g);
  CHECK(arma::dot(p, g) < 0);
  arma::mat M(Wp);
  M *= -4.0;
  M.diag() += 4.0 * arma::sum(arma::mat(Wp), 1) + mu;
  const arma::mat P = arma::reshape(p, dim, n);
  // Up to the free mean: the direction is centred, and the Barnes-Hut forces do not sum to zero
  // exactly, so the system solved is the one of the centred G.
  arma::mat G = arma::reshape(g, dim, n);
  G.each_col() -= arma::mean(G, 1);
  CHECK(arma::abs(P * M + G).max() < 1e-6 * arma::abs(G).max());
  // A truncated, warm-started solve is still downhill.
  bh.cg_iterations = 2;
  bh.cg_tol = 1e-3;
  arma::vec g2;
  bh.evaluate(y + 0.1 * p, &g2);
  CHECK(arma::dot(bh.spectral_direction(g2), g2) < 0);
}

TEST_CASE("graph affinities equal the kNN sparse affinities on the exact graph", "[ee_bh]") {
  Rng rng(35);
  const arma::mat X = rng.randn(7, 250);
  const NeighbourGraph g = neighbour_graph(X, 30, exact_graph());
  const arma::sp_mat a = graph_joint_affinities(X, g, 10.0, 2);
  const arma::sp_mat b = sparse_joint_affinities(X, 10.0, 30);
  CHECK(arma::abs(arma::mat(a - b)).max() < 1e-12);
  CHECK(arma::accu(a) == Approx(1.0).epsilon(1e-12));
  CHECK_THROWS_WITH(graph_joint_affinities(X, g, 40.0), Catch::Contains("'perplexity'"));
}

TEST_CASE("linear-time EE separates blobs, same bits on 1 and 2 threads",
          "[neighbour][ee][ee_bh]") {
  Rng rng(36);
  arma::uvec labels;
  const arma::mat X = blobs(rng, 8, 4, 60, 8.0, labels);
  const MethodInfo& info = Registry::instance().get("ee");
  arma::mat Y[2];
  for (unsigned threads : {1u, 2u}) {
    ParamSet ps;
    ps.set("gradient", std::string("barnes_hut"));
    ps.set("perplexity", 10.0);
    ps.set("iterations", std::int64_t(300));
    auto m = info.make(info.complete(ps));
    Rng r(7);
    Trace trace;
    FitInput in{X, nullptr, 0, 2, r, &trace};
    in.threads = threads;
    m->fit(in);
    Y[threads - 1] = m->embedding();
    REQUIRE(trace.rows.size() >= 2);
    CHECK(trace.optimizer == "ee_sd_barnes_hut");
    CHECK(trace.rows.back().objective < trace.rows.front().objective);
    CHECK(knn_loo_errors(Y[threads - 1], labels, {1})[0] == 0.0);
  }
  CHECK(arma::abs(Y[0] - Y[1]).max() == 0.0);
  // Validation: Barnes-Hut needs perplexity weights and at most 3 dimensions.
  ParamSet bad;
  bad.set("gradient", std::string("barnes_hut"));
  bad.set("weights", std::string("gaussian"));
  CHECK_THAT(info.check_setting(info.complete(bad)), Catch::Contains("weights: perplexity"));
  ParamSet bh;
  bh.set("gradient", std::string("barnes_hut"));
  CHECK(info.dim_limit(DataShape{100, 10, 0}, info.complete(bh)) == 3);
  CHECK_FALSE(ee_uses_barnes_hut("auto", true, 4999, 2));
  CHECK(ee_uses_barnes_hut("auto", true, 5000, 2));
  CHECK_FALSE(ee_uses_barnes_hut("auto", true, 5000, 4));
  CHECK_FALSE(ee_uses_barnes_hut("auto", false, 5000, 2));
  CHECK(ee_uses_barnes_hut("barnes_hut", true, 10, 2));
}
