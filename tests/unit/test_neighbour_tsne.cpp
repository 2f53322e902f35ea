// t-SNE: the exact KL gradient against finite differences, Barnes-Hut against the exact gradient,
// the phased optimiser's trace, blob separation and determinism.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/affinity/perplexity.hpp"
#include "framework/eval/knn.hpp"
#include "framework/optim/grad_check.hpp"
#include "framework/optim/momentum_gd.hpp"
#include "methods/neighbour/tsne/kl_gradient.hpp"
#include "methods/neighbour/tsne/tsne.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

// Reference KL(P || Q) straight from the definition.
double kl_reference(const arma::mat& P, const arma::mat& Y) {
  const arma::uword n = Y.n_cols;
  arma::mat W(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      if (i != j) W(i, j) = 1.0 / (1.0 + arma::accu(arma::square(Y.col(i) - Y.col(j))));
  const arma::mat Q = W / arma::accu(W);
  double kl = 0.0;
  for (arma::uword k = 0; k < P.n_elem; ++k)
    if (P(k) > 0) kl += P(k) * std::log(P(k) / Q(k));
  return kl;
}

}  // namespace

TEST_CASE("t-SNE exact KL and gradient: definition and finite differences", "[neighbour][tsne]") {
  Rng rng(11);
  const arma::mat X = rng.randn(6, 40);
  const arma::mat P = joint_affinities(X, 8.0);
  const double plogp = p_log_p(P);
  for (arma::uword dim : {2u, 3u}) {
    const arma::mat Y0 = rng.randn(dim, 40);
    arma::mat g;
    CHECK(tsne_exact_gradient(P, plogp, Y0, 1.0, true, g) ==
          Approx(kl_reference(P, Y0)).epsilon(1e-12));
    FunctionObjective obj([&](const arma::vec& y, arma::vec* grad) {
      const arma::mat Y = arma::reshape(y, dim, 40);
      arma::mat G;
      const double f = tsne_exact_gradient(P, plogp, Y, 1.0, true, G);
      if (grad) *grad = 4.0 * arma::vectorise(G);  // the function returns dKL/dY / 4
      return f;
    });
    CHECK(check_gradient(obj, arma::vectorise(Y0), 1e-4).max_rel_error < 1e-6);
  }
  // Exaggeration scales the attractive part only.
  const arma::mat Y = rng.randn(2, 40);
  arma::mat g1, g3, gr;
  tsne_exact_gradient(P, plogp, Y, 1.0, false, g1);
  tsne_exact_gradient(P, plogp, Y, 3.0, false, g3);
  tsne_exact_gradient(arma::mat(P * 0.0), 0.0, Y, 1.0, false, gr);  // repulsion alone
  CHECK(arma::abs(g3 - (3.0 * (g1 - gr) + gr)).max() < 1e-12 * arma::abs(g1).max() + 1e-15);
}

TEST_CASE("Barnes-Hut gradient within 1e-2 of the exact one at theta 0.5 on 1,000 points",
          "[neighbour][tsne]") {
  Rng rng(12);
  arma::uvec y;
  const arma::mat X = blobs(rng, 10, 5, 200, 3.0, y);
  const arma::sp_mat P = sparse_joint_affinities(X, 30.0);
  const arma::mat Pd(P);
  const double plogp = p_log_p(P);
  for (arma::uword dim : {2u, 3u}) {
    // A spread-out embedding with structure, as in mid-optimisation.
    const arma::mat Y = 10.0 * pca_start(X, dim, 1.0) + rng.randn(dim, X.n_cols);
    arma::mat ge, gb, g0;
    const double kl_e = tsne_exact_gradient(Pd, plogp, Y, 1.0, true, ge);
    const double kl_b = tsne_bh_gradient(P, plogp, Y, 0.5, 1.0, true, gb);
    const double rel = arma::norm(gb - ge, "fro") / arma::norm(ge, "fro");
    INFO("dim " << dim << " relative error " << rel);
    CHECK(rel < 1e-2);
    CHECK(kl_b == Approx(kl_e).epsilon(5e-3));  // Z is estimated by the tree too
    // theta = 0 opens every cell: the exact gradient up to rounding.
    tsne_bh_gradient(P, plogp, Y, 0.0, 1.0, false, g0);
    CHECK(arma::norm(g0 - ge, "fro") < 1e-10 * arma::norm(ge, "fro"));
  }
}

TEST_CASE("Barnes-Hut tree survives coincident points", "[neighbour][tsne]") {
  Rng rng(13);
  arma::mat Y = rng.randn(2, 50);
  Y.cols(10, 29).each_col() = Y.col(10);  // 20 identical points
  const arma::mat X = rng.randn(4, 50);
  const arma::sp_mat P = sparse_joint_affinities(X, 5.0);
  arma::mat ge, gb;
  tsne_exact_gradient(arma::mat(P), p_log_p(P), Y, 1.0, false, ge);
  tsne_bh_gradient(P, p_log_p(P), Y, 0.0, 1.0, false, gb);
  CHECK(gb.is_finite());
  CHECK(arma::norm(gb - ge, "fro") < 1e-10 * arma::norm(ge, "fro"));
}

TEST_CASE("Phased momentum descent: phases, exaggeration, trace with steps, callback",
          "[neighbour][tsne][optim]") {
  // f = 0.5 |Y - T|^2: the estimator records the exaggeration it is asked for.
  const arma::mat T = {{1.0, -2.0}, {0.5, 3.0}};
  std::vector<double> seen;
  GradientEstimator est;
  est.evaluate = [&](const arma::mat& Y, double e, bool want, arma::mat& g) {
    seen.push_back(e);
    g = Y - T;
    return want ? 0.5 * arma::accu(arma::square(Y - T)) : std::nan("");
  };
  MomentumGdOptions opt;
  opt.phases = {{5, 0.5, 4.0}, {195, 0.8, 1.0}};
  opt.learning_rate = 0.1;
  opt.objective_every = 3;
  Trace trace;
  opt.trace = &trace;
  arma::mat Y(2, 2, arma::fill::zeros);
  const MomentumGdResult r = momentum_gd(Y, est, opt);
  CHECK(r.iterations == 200);
  CHECK(r.stop_reason == "iterations");
  CHECK(arma::abs(Y - T).max() < 1e-6);
  REQUIRE(seen.size() == 200);
  CHECK(seen[4] == 4.0);
  CHECK(seen[5] == 1.0);
  REQUIRE(trace.rows.size() == 200);
  CHECK(std::isnan(trace.rows[1].objective));
  CHECK(std::isfinite(trace.rows[3].objective));
  CHECK(std::isfinite(trace.rows[199].objective));
  // First step from rest: gains become 1.2 where the gradient is positive (its sign differs from
  // the zero update's), 0.8 elsewhere; step = lr |gains % grad|.
  const arma::mat g0 = -T;
  const arma::mat gains0 = arma::conv_to<arma::mat>::from(g0 > 0) * 0.4 + 0.8;
  CHECK(trace.rows[0].step == Approx(0.1 * arma::norm(gains0 % g0, "fro")));
  Y.zeros();
  trace = Trace();
  const MomentumGdResult s =
      momentum_gd(Y, est, opt, [](int it, const arma::mat&) { return it < 9; });
  CHECK(s.iterations == 10);
  CHECK(s.stop_reason == "callback");
}

TEST_CASE("t-SNE separates well-separated blobs (exact and Barnes-Hut) and is deterministic",
          "[neighbour][tsne]") {
  Rng rng(14);
  arma::uvec y;
  const arma::mat X = blobs(rng, 10, 4, 40, 8.0, y);
  for (const char* gradient : {"exact", "barnes_hut"}) {
    Trace trace;
    auto m = fit_method("tsne", {{"perplexity", 10.0}, {"gradient", std::string(gradient)}}, X, 2,
                        nullptr, 0, &trace);
    const arma::mat Y = m->embedding();
    REQUIRE(Y.n_rows == 2);
    REQUIRE(Y.n_cols == X.n_cols);
    INFO(gradient);
    CHECK(knn_loo_errors(Y, y, {1})[0] == 0.0);
    REQUIRE(trace.rows.size() == 1000);
    // KL falls from the start to the end of the run.
    CHECK(trace.rows.back().objective < 0.5 * trace.rows.front().objective);
    CHECK(std::isfinite(trace.rows.back().step));
  }
  // Same seed, same result; the random start depends on the seed.
  const std::map<std::string, ParamValue> p = {
      {"perplexity", 10.0}, {"init", std::string("random")}, {"iterations", std::int64_t(300)}};
  const arma::mat a = fit_method("tsne", p, X, 2, nullptr, 0, nullptr, 5)->embedding();
  const arma::mat b = fit_method("tsne", p, X, 2, nullptr, 0, nullptr, 5)->embedding();
  const arma::mat c = fit_method("tsne", p, X, 2, nullptr, 0, nullptr, 6)->embedding();
  CHECK(arma::abs(a - b).max() == 0.0);
  CHECK(arma::abs(a - c).max() > 1e-3);
}
