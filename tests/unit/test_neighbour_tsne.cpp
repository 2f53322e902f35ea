// t-SNE: the exact KL gradient against finite differences, Barnes-Hut against the exact gradient,
// the FFT gradient and Z against the exact ones, P on the shared neighbour graph, the gradient
// choice and thread-count independence, the phased optimiser's trace, blob separation and
// determinism.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/affinity/perplexity.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/eval/knn.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/grad_check.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/tsne/kl_gradient.hpp"
#include "methods/neighbour/tsne/tsne.hpp"
#include "neighbour_helpers.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

// t-SNE's PCA start at unit scale: a layout with the data's structure.
arma::mat tsne_start(const arma::mat& X, arma::uword dim) {
  return pca_start(X, dim, {PcaSigns::Scores, PcaStartScale::FirstAxisSd, 1.0}).Y;
}

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

// Five 10-D blobs of `per_class` points and their sparse joint affinities (also dense, and the
// constant sum p ln p), the input of the gradient comparisons.
struct BlobAffinities {
  arma::mat X;
  arma::sp_mat P;
  arma::mat Pd;
  double plogp;
};

BlobAffinities blob_affinities(Rng& rng, arma::uword per_class, double perplexity) {
  BlobAffinities b;
  arma::uvec y;
  b.X = blobs(rng, 10, 5, per_class, 3.0, y);
  b.P = sparse_joint_affinities(b.X, perplexity);
  b.Pd = arma::mat(b.P);
  b.plogp = p_log_p(b.P);
  return b;
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
  const auto [X, P, Pd, plogp] = blob_affinities(rng, 200, 30.0);
  for (arma::uword dim : {2u, 3u}) {
    // A spread-out embedding with structure, as in mid-optimisation.
    const arma::mat Y = 10.0 * tsne_start(X, dim) + rng.randn(dim, X.n_cols);
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

TEST_CASE("Momentum optimiser: phases, exaggeration, gradient-only calls, trace, callback",
          "[neighbour][tsne][optim]") {
  // f = 0.5 e |x - t|^2 with e set by the phases: the objective records what it is asked with.
  const arma::vec t = {1.0, 0.5, -2.0, 3.0};
  double e = 1.0;
  std::vector<double> seen;
  int value_calls = 0;
  struct Recorder final : Objective {
    std::function<double(const arma::vec&, arma::vec*)> f;
    std::function<void(const arma::vec&, arma::vec&)> g;
    double evaluate(const arma::vec& x, arma::vec* grad) override { return f(x, grad); }
    void gradient(const arma::vec& x, arma::vec& grad) override { g(x, grad); }
  } obj;
  obj.g = [&](const arma::vec& x, arma::vec& g) {
    seen.push_back(e);
    g = e * (x - t);
  };
  obj.f = [&](const arma::vec& x, arma::vec* g) {
    ++value_calls;
    if (g) obj.g(x, *g);
    return 0.5 * e * arma::accu(arma::square(x - t));
  };
  OptimOptions opt;
  opt.max_iterations = 200;
  opt.phases = {{"early", 5, [&] { e = 4.0; }, 0.5}, {"main", 0, [&] { e = 1.0; }, 0.8}};
  opt.momentum.learning_rate = 0.1;
  opt.momentum.objective_every = 3;
  Trace trace;
  opt.trace = &trace;
  const arma::vec x0(4, arma::fill::zeros);
  const OptimResult r = minimize("momentum", obj, x0, opt);
  CHECK(r.iterations == 200);
  CHECK(r.stop_reason == "max_iterations");
  CHECK(arma::abs(r.x - t).max() < 1e-6);
  REQUIRE(seen.size() == 200);
  CHECK(seen[4] == 4.0);
  CHECK(seen[5] == 1.0);
  CHECK(value_calls == 68);  // iterations 0, 3, ..., 198 and the last, 199
  REQUIRE(trace.rows.size() == 200);
  CHECK(std::isnan(trace.rows[1].objective));
  CHECK(std::isfinite(trace.rows[3].objective));
  CHECK(std::isfinite(trace.rows[199].objective));
  CHECK(r.f == trace.rows[199].objective);
  // First step from rest: gains become 1.2 where the gradient is positive (its sign differs from
  // the zero update's), 0.8 elsewhere; step = lr |gains % grad|.
  const arma::vec g0 = -4.0 * t;
  const arma::vec gains0 = arma::conv_to<arma::vec>::from(g0 > 0) * 0.4 + 0.8;
  CHECK(trace.rows[0].step == Approx(0.1 * arma::norm(gains0 % g0)));
  // Every iterate against the update rule replayed here from the gradients the callback sees,
  // with momentum 0.5 in the first phase and 0.8 after it.
  arma::vec gains(4, arma::fill::ones), u(4, arma::fill::zeros), x_ref = x0;
  double worst = 0.0;
  opt.trace = nullptr;
  opt.callback = [&](const IterationInfo& it) {
    const double mom = it.iteration < 5 ? 0.5 : 0.8;
    for (arma::uword i = 0; i < 4; ++i) {
      gains(i) = (it.g(i) > 0) != (u(i) > 0) ? gains(i) + 0.2 : gains(i) * 0.8;
      gains(i) = std::max(gains(i), 0.01);
      u(i) = mom * u(i) - 0.1 * gains(i) * it.g(i);
    }
    x_ref += u;
    worst = std::max(worst, arma::abs(it.x - x_ref).max());
    return it.iteration < 9;
  };
  const OptimResult s = minimize("momentum", obj, x0, opt);
  CHECK(worst < 1e-14);
  CHECK(s.iterations == 10);
  CHECK(s.stop_reason == "callback");
}

TEST_CASE("t-SNE separates well-separated blobs (exact and Barnes-Hut) and is deterministic",
          "[neighbour][tsne]") {
  Rng rng(14);
  const auto [X, y] = labelled_blobs(rng, 10, 4, 40, 8.0);
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

TEST_CASE("FFT gradient and Z against the exact ones, refining with the grid",
          "[neighbour][tsne][fft]") {
  Rng rng(15);
  const auto [X, P, Pd, plogp] = blob_affinities(rng, 80, 20.0);
  for (arma::uword dim : {1u, 2u}) {
    const arma::mat Y = 10.0 * tsne_start(X, dim) + rng.randn(dim, X.n_cols);
    arma::mat ge, gf;
    const double kl_e = tsne_exact_gradient(Pd, plogp, Y, 2.0, true, ge);
    FftInterpolationOptions opt;
    const double kl_f = tsne_fft_gradient(P, plogp, Y, opt, 2.0, true, gf);
    const double rel = arma::norm(gf - ge, "fro") / arma::norm(ge, "fro");
    // KL = sum p ln p - sum p ln w + ln Z with the same attractive part: the difference is
    // ln Z_fft - ln Z_exact.
    const double z_err = std::abs(std::expm1(kl_f - kl_e));
    INFO("dim " << dim << " gradient error " << rel << " Z error " << z_err);
    CHECK(rel < 2e-2);  // Barnes-Hut at theta 0.5 is held to 1e-2 above
    CHECK(z_err < 1e-2);
    // Refining the grid: more nodes per interval at 100 intervals, then narrower intervals at 3
    // nodes each; the gradient and Z errors fall at each step.
    double last_g = 1.0, last_z = 1.0;
    const auto refined = [&](const char* what, int value) {
      const double kl = tsne_fft_gradient(P, plogp, Y, opt, 2.0, true, gf);
      const double eg = arma::norm(gf - ge, "fro") / arma::norm(ge, "fro");
      const double ez = std::abs(std::expm1(kl - kl_e));
      INFO(what << " " << value << " gradient error " << eg << " Z error " << ez);
      CHECK(eg < 0.5 * last_g);
      CHECK(ez < last_z);
      last_g = eg;
      last_z = ez;
    };
    opt.min_intervals = opt.max_intervals = 100;
    for (int p : {2, 3, 5, 8}) {
      opt.nodes = p;
      refined("nodes", p);
    }
    CHECK(last_g < 1e-6);
    CHECK(last_z < 1e-8);
    opt.nodes = 3;
    last_g = last_z = 1.0;
    for (int m : {25, 50, 100, 200}) {
      opt.min_intervals = opt.max_intervals = m;
      refined("intervals", m);
    }
    // Threads change nothing.
    arma::mat g1, g3;
    tsne_fft_gradient(P, plogp, Y, {}, 1.0, true, g1, 1);
    tsne_fft_gradient(P, plogp, Y, {}, 1.0, true, g3, 3);
    CHECK(arma::abs(g1 - g3).max() == 0.0);
  }
  arma::mat g;
  CHECK_THROWS_AS(tsne_fft_gradient(P, plogp, rng.randn(3, X.n_cols), {}, 1.0, false, g),
                  MethodError);
}

TEST_CASE("t-SNE P on the shared neighbour graph equals the kNN affinities it replaces",
          "[neighbour][tsne]") {
  Rng rng(16);
  const auto [X, y] = labelled_blobs(rng, 8, 4, 100, 3.0);
  const arma::sp_mat ref = sparse_joint_affinities(X, 15.0);
  GraphOptions go = exact_graph();
  for (unsigned threads : {1u, 3u}) {
    go.threads = threads;
    const arma::sp_mat P = graph_joint_affinities(X, neighbour_graph(X, 45, go), 15.0, threads);
    CHECK(arma::accu(arma::abs(P - ref)) == 0.0);
  }
  // The approximate graph: the same rows where HNSW finds the same neighbours, close overall.
  go.kind = GraphKind::approximate;
  const arma::sp_mat Pa = graph_joint_affinities(X, neighbour_graph(X, 45, go), 15.0);
  CHECK(arma::accu(Pa) == Approx(1.0).epsilon(1e-12));
  CHECK(arma::accu(arma::abs(Pa - ref)) < 0.05);
}

TEST_CASE("t-SNE gradient choice: auto keeps Barnes-Hut at small sizes, fft fits, threads",
          "[neighbour][tsne][fft]") {
  Rng rng(17);
  const auto [X, y] = labelled_blobs(rng, 10, 4, 50, 8.0);
  CHECK(tsne_gradient_for("auto", 39999, 2) == "barnes_hut");
  CHECK(tsne_gradient_for("auto", 40000, 2) == "fft");
  CHECK(tsne_gradient_for("auto", 4999, 1) == "barnes_hut");
  CHECK(tsne_gradient_for("auto", 5000, 1) == "fft");
  CHECK(tsne_gradient_for("auto", 60000, 3) == "barnes_hut");
  CHECK(tsne_gradient_for("exact", 60000, 2) == "exact");
  const std::map<std::string, ParamValue> base = {{"perplexity", 10.0},
                                                  {"iterations", std::int64_t(300)}};
  auto with = [&](const char* g) {
    auto p = base;
    p["gradient"] = std::string(g);
    return p;
  };
  const arma::mat a = fit_method("tsne", base, X, 2)->embedding();
  const arma::mat b = fit_method("tsne", with("barnes_hut"), X, 2)->embedding();
  CHECK(arma::abs(a - b).max() == 0.0);
  // The fft fit runs 600 iterations: at 300, 50 past the exaggeration, the KL is still falling
  // fast and its value there depends on BLAS round-off (OPENBLAS_CORETYPE) enough to straddle the
  // halving checked below.
  auto fft600 = with("fft");
  fft600["iterations"] = std::int64_t(600);
  Trace trace;
  const arma::mat f = fit_method("tsne", fft600, X, 2, nullptr, 0, &trace)->embedding();
  CHECK(trace.optimizer == "tsne_gd_fft");
  const arma::mat e = fit_method("tsne", with("exact"), X, 2)->embedding();
  CHECK(knn_loo_errors(f, y, {1})[0] <= knn_loo_errors(e, y, {1})[0] + 0.01);
  CHECK(trace.rows.back().objective < 0.5 * trace.rows.front().objective);
  // 1-D: the blobs come out as intervals of a line.
  const arma::mat f1 = fit_method("tsne", with("fft"), X, 1)->embedding();
  REQUIRE(f1.n_rows == 1);
  CHECK(f1.is_finite());
  CHECK(knn_loo_errors(f1, y, {1})[0] <= 0.05);
  // One thread or three: the same embedding, for fft and Barnes-Hut.
  for (const char* g : {"fft", "barnes_hut"}) {
    const MethodInfo& info = Registry::instance().get("tsne");
    ParamSet ps;
    for (const auto& [k, v] : with(g)) ps.set(k, v);
    arma::mat out[2];
    for (unsigned t : {1u, 3u}) {
      auto m = info.make(info.complete(ps));
      Rng r(3);
      FitInput in{X, nullptr, 0, 2, r, nullptr};
      in.threads = t;
      m->fit(in);
      out[t == 3] = m->embedding();
    }
    INFO(g);
    CHECK(arma::abs(out[0] - out[1]).max() == 0.0);
  }
  // fft refuses 3-D: at validation (max_dim) and in the fit.
  const MethodInfo& info = Registry::instance().get("tsne");
  ParamSet ps;
  ps.set("gradient", std::string("fft"));
  CHECK(info.dim_limit(DataShape{1000, 50, 0}, info.complete(ps)) == 2);
  CHECK(info.dim_limit(DataShape{1000, 50, 0}, info.complete({})) == 3);
  CHECK_THROWS_AS(fit_method("tsne", with("fft"), X, 3), MethodError);
}
