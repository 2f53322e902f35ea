// Elastic embedding: objective and gradient against the definition and finite differences, the
// spectral and fixed-point directions are descent directions, every optimiser lowers E and
// separates well-separated blobs, same seed same result.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/eval/knn.hpp"
#include "framework/optim/grad_check.hpp"
#include "framework/optim/line_search.hpp"
#include "methods/neighbour/ee/ee.hpp"
#include "methods/neighbour/ee/ee_objective.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

arma::mat random_weights(Rng& rng, arma::uword n) {
  arma::mat W = arma::abs(rng.randn(n, n));
  W = W + W.t();
  W.diag().zeros();
  return W / arma::accu(W);
}

}  // namespace

TEST_CASE("EE objective: definition, finite-difference gradient, descent directions",
          "[neighbour][ee]") {
  Rng rng(21);
  const arma::uword n = 25;
  const arma::mat Wp = random_weights(rng, n), Wm = random_weights(rng, n);
  const double lambda = 3.0;
  for (arma::uword dim : {1u, 2u, 3u}) {
    EeObjective obj(Wp, Wm, lambda, dim);
    const arma::mat Y = rng.randn(dim, n);
    double E = 0.0;
    for (arma::uword i = 0; i < n; ++i)
      for (arma::uword j = 0; j < n; ++j) {
        const double d2 = arma::accu(arma::square(Y.col(i) - Y.col(j)));
        E += Wp(i, j) * d2 + lambda * Wm(i, j) * std::exp(-d2);
      }
    CHECK(obj.evaluate(arma::vectorise(Y), nullptr) == Approx(E).epsilon(1e-12));
    CHECK(check_gradient(obj, arma::vectorise(Y), 1e-4).max_rel_error < 1e-6);

    arma::vec g;
    obj.evaluate(arma::vectorise(Y), &g);
    obj.factor_spectral(1e-10);
    const arma::vec ps = obj.spectral_direction(g), pf = obj.fixed_point_direction(g);
    CHECK(arma::dot(g, ps) < 0);
    CHECK(arma::dot(g, pf) < 0);
    // The spectral direction solves (4 L+ + mu I) P^T = -G^T up to its (free) mean.
    arma::mat M = -4.0 * Wp;
    M.diag() += 4.0 * arma::sum(Wp, 1);
    const arma::mat P = arma::reshape(ps, dim, n), G = arma::reshape(g, dim, n);
    CHECK(arma::abs(P * M + G).max() < 1e-6 * arma::abs(G).max());
    // A short step along either direction decreases E.
    int evals = 0;
    for (const arma::vec* p : {&ps, &pf}) {
      const arma::vec x = arma::vectorise(Y);
      LineFunction phi(obj, x, *p, evals);
      const LinePoint p0 = phi.origin(obj.evaluate(x, nullptr), g);
      LinePoint acc;
      ArmijoOptions ao;
      ao.c = 0.1;
      ao.rho = 0.8;
      REQUIRE(armijo_search(phi, p0, 1.0, ao, acc));
      CHECK(satisfies_armijo(p0, acc, 0.1));
      CHECK(acc.f < p0.f);
    }
  }
}

TEST_CASE("EE with each optimiser lowers E and separates well-separated blobs", "[neighbour][ee]") {
  Rng rng(22);
  const auto [X, y] = labelled_blobs(rng, 8, 4, 30, 8.0);
  for (const char* opt : {"sd", "fp", "gd"}) {
    INFO(opt);
    Trace trace;
    auto m = fit_method(
        "ee",
        {{"optimizer", std::string(opt)}, {"perplexity", 10.0}, {"iterations", std::int64_t(300)}},
        X, 2, nullptr, 0, &trace);
    const auto& ee = dynamic_cast<const ElasticEmbedding&>(*m);
    REQUIRE(trace.rows.size() >= 2);
    for (std::size_t i = 1; i < trace.rows.size(); ++i)
      CHECK(trace.rows[i].objective <= trace.rows[i - 1].objective);
    CHECK(std::isfinite(trace.rows.back().step));
    CHECK(ee.objective() == trace.rows.back().objective);
    CHECK(knn_loo_errors(m->embedding(), y, {1})[0] == 0.0);
    if (std::string(opt) == "sd") CHECK(ee.stop_reason() == "relative_change");
  }
  const std::map<std::string, ParamValue> p = {{"perplexity", 10.0}};
  const arma::mat a = fit_method("ee", p, X, 2, nullptr, 0, nullptr, 3)->embedding();
  const arma::mat b = fit_method("ee", p, X, 2, nullptr, 0, nullptr, 3)->embedding();
  CHECK(arma::abs(a - b).max() == 0.0);
}
