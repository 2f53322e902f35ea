// UMAP: the calibrated memberships sum to log2(k), the fuzzy union is the symmetric
// A + A^T - A o A^T in [0, 1], the a/b fit gives umap-learn's values, the cross-entropy gradient
// and its per-edge coefficients against finite differences, the spectral start against a dense
// eigendecomposition, determinism (seed and thread count), settings refused, and the embedding
// separates blobs and maps new points next to their class.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/eval/knn.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/neighbour/umap/fuzzy_set.hpp"
#include "methods/neighbour/umap/layout.hpp"
#include "methods/neighbour/umap/umap.hpp"
#include "neighbour_helpers.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

namespace {

std::unique_ptr<Method> fit_umap(const arma::mat& X, std::map<std::string, ParamValue> given,
                                 unsigned threads, std::uint64_t seed, Trace* trace = nullptr,
                                 arma::uword dim = 2) {
  const MethodInfo& info = Registry::instance().get("umap");
  ParamSet ps;
  for (const auto& [k, v] : given) ps.set(k, v);
  auto m = info.make(info.complete(ps));
  Rng rng(seed);
  FitInput in{X, nullptr, 0, dim, rng, trace};
  in.threads = threads;
  m->fit(in);
  return m;
}

}  // namespace

TEST_CASE("UMAP memberships sum to log2(k) and the fuzzy union is symmetric in [0, 1]",
          "[neighbour][umap]") {
  Rng rng(3);
  const arma::mat X = rng.randn(5, 300);
  for (arma::uword k : {5u, 15u, 30u}) {
    INFO("k = " << k);
    const NeighbourGraph g = neighbour_graph(X, k - 1, exact_graph());
    const umap::SmoothKnn sk = umap::smooth_knn(g.dist, std::log2(double(k)), 1.0, 1);
    const arma::mat W = umap::memberships(g, sk);
    const arma::rowvec sums = arma::sum(W, 0);
    CHECK(arma::abs(sums - std::log2(double(k))).max() < 1e-4);
    // Local connectivity 1: the nearest neighbour is a full member, rho its distance.
    CHECK(arma::abs(W.row(0) - 1.0).max() == 0.0);
    CHECK(arma::abs(sk.rho.t() - g.dist.row(0)).max() == 0.0);
    // The same bits on two threads.
    const umap::SmoothKnn sk2 = umap::smooth_knn(g.dist, std::log2(double(k)), 1.0, 2);
    CHECK(arma::approx_equal(sk2.sigma, sk.sigma, "absdiff", 0.0));

    const arma::sp_mat G = umap::fuzzy_union(g, W);
    const arma::mat D(G);
    CHECK(arma::approx_equal(D, D.t(), "absdiff", 0.0));
    CHECK(D.min() >= 0.0);
    CHECK(D.max() <= 1.0);
    CHECK(arma::abs(D.diag()).max() == 0.0);
    // Against the definition on the dense matrix A(j, i) = i's membership of j.
    arma::mat A(X.n_cols, X.n_cols, arma::fill::zeros);
    for (arma::uword i = 0; i < X.n_cols; ++i)
      for (arma::uword e = 0; e < g.k(); ++e) A(g.index(e, i), i) = W(e, i);
    CHECK(arma::abs(D - (A + A.t() - A % A.t())).max() < 1e-15);
  }
}

TEST_CASE("UMAP transform calibration: no local connectivity, sums still log2(k)",
          "[neighbour][umap]") {
  Rng rng(4);
  const arma::mat X = rng.randn(4, 200), Q = rng.randn(4, 30);
  const NeighbourGraph g = NeighbourIndex(X, 15, exact_graph()).query(Q, 15);
  const umap::SmoothKnn sk = umap::smooth_knn(g.dist, std::log2(15.0), 0.0, 1);
  CHECK(arma::abs(sk.rho).max() == 0.0);
  CHECK(arma::abs(arma::sum(umap::memberships(g, sk), 0) - std::log2(15.0)).max() < 1e-4);
}

TEST_CASE("UMAP a/b fit: spread 1, min_dist 0.1 gives a = 1.577, b = 0.895", "[neighbour][umap]") {
  const umap::CurveAb ab = umap::fit_ab(1.0, 0.1);
  CHECK(std::fabs(ab.a - 1.577) < 5e-4);
  CHECK(std::fabs(ab.b - 0.895) < 5e-4);
  // The fitted curve is a least-squares optimum: no nearby (a, b) fits better.
  auto sse = [](double a, double b) {
    double s = 0;
    for (int i = 0; i < 300; ++i) {
      const double x = 3.0 * i / 299.0;
      const double y = x < 0.1 ? 1.0 : std::exp(-(x - 0.1));
      const double f = 1.0 / (1.0 + a * std::pow(x, 2 * b));
      s += (f - y) * (f - y);
    }
    return s;
  };
  const double best = sse(ab.a, ab.b);
  for (double da : {-1e-3, 1e-3})
    for (double db : {-1e-3, 1e-3}) CHECK(sse(ab.a + da, ab.b + db) > best);
  // A larger min_dist flattens the curve near 0: a falls.
  CHECK(umap::fit_ab(1.0, 0.5).a < ab.a);
}

TEST_CASE("UMAP cross-entropy gradient and per-edge coefficients against finite differences",
          "[neighbour][umap]") {
  Rng rng(5);
  const arma::mat X = rng.randn(3, 25);
  const NeighbourGraph g = neighbour_graph(X, 6, exact_graph());
  const arma::sp_mat W =
      umap::fuzzy_union(g, umap::memberships(g, umap::smooth_knn(g.dist, std::log2(7.0), 1.0, 1)));
  for (const auto& [a, b] : {std::pair{1.577, 0.895}, std::pair{1.0, 1.0}, std::pair{0.5, 1.3}})
    for (double scale : {0.3, 1.0, 4.0}) {
      INFO("a " << a << " b " << b << " scale " << scale);
      const arma::mat Y0 = scale * rng.randn(2, 25);
      FunctionObjective f([&, a = a, b = b](const arma::vec& x, arma::vec* grad) {
        const arma::mat Y = arma::reshape(x, 2, 25);
        arma::mat G;
        const double v = umap::cross_entropy(Y, W, a, b, grad ? &G : nullptr);
        if (grad) *grad = arma::vectorise(G);
        return v;
      });
      // Close points make -log(1 - q) steep (log d2): a smaller step keeps truncation down.
      CHECK(check_gradient(f, arma::vectorise(Y0), scale < 1 ? 1e-5 : 1e-3).max_rel_error < 1e-6);
    }
  // Per edge: -log q and -log(1 - q) as functions of y_i alone.
  const double a = 1.577, b = 0.895;
  const arma::vec yj = {0.3, -0.2};
  for (const arma::vec& yi0 : {arma::vec{1.1, 0.4}, arma::vec{0.35, -0.1}, arma::vec{-3.0, 2.0}}) {
    FunctionObjective att([&](const arma::vec& yi, arma::vec* grad) {
      const double d2 = arma::accu(arma::square(yi - yj));
      if (grad) *grad = umap::attract_coeff(d2, a, b) * (yi - yj);
      return std::log1p(a * std::pow(d2, b));
    });
    CHECK(check_gradient(att, yi0, 1e-5).max_rel_error < 1e-6);
    FunctionObjective rep([&](const arma::vec& yi, arma::vec* grad) {
      const double d2 = arma::accu(arma::square(yi - yj));
      if (grad) *grad = umap::repulse_coeff(d2, a, b, 0.0) * (yi - yj);
      const double adb = a * std::pow(d2, b);
      return std::log1p(adb) - std::log(adb);
    });
    CHECK(check_gradient(rep, yi0, 1e-5).max_rel_error < 1e-6);
    // The layout's eps = 0.001 only damps the push: the ratio is d2 / (d2 + eps).
    const double d2 = arma::accu(arma::square(yi0 - yj));
    CHECK(umap::repulse_coeff(d2, a, b, 1e-3) / umap::repulse_coeff(d2, a, b, 0.0) ==
          Approx(d2 / (d2 + 1e-3)).epsilon(1e-12));
  }
}

TEST_CASE("UMAP layout powers: the table against std::pow", "[neighbour][umap]") {
  // The layout's exponents (b - 1 for b = 0.895, 1 and 1.9) and others; x over the table's range,
  // finely enough to cross every segment, and outside it (std::pow).
  for (double y : {-0.104939, 0.0, 0.5, 0.895061, -0.6, 1.3, 2.0}) {
    const umap::PowTable pw(y);
    double worst = 0.0;
    for (double l = -19.0; l < 19.0; l += 1e-4) {
      const double x = std::pow(10.0, l);
      worst = std::max(worst, std::fabs(pw(x) / std::pow(x, y) - 1.0));
    }
    INFO("y = " << y);
    // The cubic's remainder, |y (y - 1) (y - 2) (y - 3)| / 24 d^4 with d < 1/128, plus rounding.
    CHECK(worst < std::fabs(y * (y - 1) * (y - 2) * (y - 3)) / 24.0 * std::pow(2.0, -28) + 1e-13);
    for (double x : {1e-300, 4e-320, 1e30, 1e300})
      CHECK(pw(x) == Approx(std::pow(x, y)).epsilon(1e-12));
    CHECK(pw(0.0) == std::pow(0.0, y));
    CHECK(pw(1.0) == Approx(1.0).epsilon(1e-15));
  }
}

TEST_CASE("UMAP spectral start: the Laplacian's next-smallest eigenvectors", "[neighbour][umap]") {
  // Both paths (dense below 600 points, Lanczos above) against a dense decomposition of
  // I - D^-1/2 G D^-1/2.
  for (arma::uword n : {300u, 900u}) {
    INFO("n = " << n);
    Rng rng(6);
    arma::uvec y;
    const arma::mat X = blobs(rng, 5, 3, n / 3, 0.8, y);
    const NeighbourGraph g = neighbour_graph(X, 10, exact_graph());
    const arma::sp_mat G = umap::fuzzy_union(
        g, umap::memberships(g, umap::smooth_knn(g.dist, std::log2(11.0), 1.0, 1)));
    REQUIRE(umap::components(G) == 1);
    arma::mat Y;
    REQUIRE(umap::spectral_start(G, 2, Y));
    const arma::vec dinv = 1.0 / arma::sqrt(arma::vec(arma::sum(G, 1)));
    const arma::mat L = arma::eye(n, n) - arma::diagmat(dinv) * arma::mat(G) * arma::diagmat(dinv);
    arma::vec ev;
    arma::mat V;
    REQUIRE(arma::eig_sym(ev, V, L));
    REQUIRE(ev(3) - ev(2) > 1e-6);  // a well-defined 2-D subspace
    const arma::vec cosines = subspace_cosines(Y, V.cols(1, 2).t());
    CHECK(cosines.min() > 1 - 1e-6);
  }
}

TEST_CASE("UMAP components: a graph of two cliques has two", "[neighbour][umap]") {
  arma::sp_mat G(6, 6);
  for (arma::uword i = 0; i < 3; ++i)
    for (arma::uword j = 0; j < 3; ++j)
      if (i != j) G(i, j) = G(i + 3, j + 3) = 0.5;
  CHECK(umap::components(G) == 2);
  G(0, 3) = G(3, 0) = 0.1;
  CHECK(umap::components(G) == 1);
}

TEST_CASE("UMAP separates blobs, maps new points next to their class, and is deterministic",
          "[neighbour][umap]") {
  Rng rng(8);
  const auto [X, y] = labelled_blobs(rng, 10, 4, 60, 4.0);
  // New points from the training classes: perturbed training points.
  const arma::mat Q = X.cols(arma::regspace<arma::uvec>(0, 6, 239)) + 0.1 * rng.randn(10, 40);
  const arma::uvec yq = y(arma::regspace<arma::uvec>(0, 6, 239));
  Trace trace;
  auto m = fit_umap(X, {{"iterations", std::int64_t(200)}}, 1, 42, &trace);
  const arma::mat E = m->embedding();
  REQUIRE(E.is_finite());
  CHECK(loo_1nn_error(E, y) == 0.0);
  // One trace row per epoch, the learning rate falling linearly.
  REQUIRE(trace.rows.size() == 200);
  CHECK(trace.rows.front().step == 1.0);
  CHECK(trace.rows.back().step == Approx(1.0 / 200));
  CHECK(trace.rows.back().objective < trace.rows.front().objective);
  // New points land nearest to training points of their own class.
  const arma::mat T = m->transform(Q);
  REQUIRE(T.is_finite());
  arma::uword right = 0;
  for (arma::uword j = 0; j < Q.n_cols; ++j) {
    const arma::uword nn = arma::index_min(arma::sum(arma::square(E.each_col() - T.col(j)), 0));
    right += y(nn) == yq(j);
  }
  CHECK(right == Q.n_cols);

  // Same seed: the same bits; the thread count changes nothing.
  auto m2 = fit_umap(X, {{"iterations", std::int64_t(200)}}, 2, 42);
  CHECK(arma::approx_equal(m2->embedding(), E, "absdiff", 0.0));
  CHECK(arma::approx_equal(m2->transform(Q), T, "absdiff", 0.0));
  auto m3 = fit_umap(X, {{"iterations", std::int64_t(200)}}, 1, 43);
  CHECK(arma::abs(m3->embedding() - E).max() > 1e-3);

  // 3-D: the layout's generic loop (2-D has its own instance) separates the blobs as well, and
  // maps the new points next to their class.
  auto m4 = fit_umap(X, {{"iterations", std::int64_t(200)}}, 1, 42, nullptr, 3);
  const arma::mat E3 = m4->embedding();
  REQUIRE(E3.n_rows == 3);
  CHECK(loo_1nn_error(E3, y) == 0.0);
  const arma::mat T3 = m4->transform(Q);
  right = 0;
  for (arma::uword j = 0; j < Q.n_cols; ++j)
    right += y(arma::index_min(arma::sum(arma::square(E3.each_col() - T3.col(j)), 0))) == yq(j);
  CHECK(right == Q.n_cols);
}

TEST_CASE("UMAP starts: pca and random, and a disconnected graph falls back to PCA",
          "[neighbour][umap]") {
  Rng rng(9);
  arma::uvec y;
  // Two blobs far apart: with 5 neighbours the graph has two components.
  arma::mat X = blobs(rng, 6, 2, 40, 0.0, y);
  X.cols(40, 79) += 100.0;
  Trace trace;
  auto m = fit_umap(X, {{"neighbours", std::int64_t(5)}, {"iterations", std::int64_t(50)}}, 1, 1,
                    &trace);
  bool fell_back = false;
  for (const auto& [k, v] : trace.notes)
    if (k == "init") fell_back = v.find("pca (graph has 2 components)") == 0;
  CHECK(fell_back);
  CHECK(loo_1nn_error(m->embedding(), y) == 0.0);
  for (const char* init : {"pca", "random"}) {
    auto mi = fit_umap(X, {{"init", std::string(init)}, {"iterations", std::int64_t(50)}}, 1, 1);
    CHECK(mi->embedding().is_finite());
  }
}

TEST_CASE("UMAP refuses bad settings with the fix", "[neighbour][umap]") {
  const MethodInfo& info = Registry::instance().get("umap");
  ParamSet p;
  p.set("min_dist", 2.0);
  p.set("spread", 1.0);
  const std::string problem = info.check_setting(info.complete(p));
  CHECK_THAT(problem, Catch::Contains("min_dist") && Catch::Contains("min_dist <= spread"));
  ParamSet ok;
  ok.set("min_dist", 0.5);
  CHECK(info.check_setting(info.complete(ok)).empty());
  CHECK_FALSE(info.param("negative_sample_rate")->check(-1.0).empty());
  CHECK_FALSE(info.param("negative_sample_rate")->check(0.0).empty());
  CHECK_FALSE(info.param("min_dist")->check(-0.1).empty());
  CHECK_FALSE(info.param("spread")->check(0.0).empty());
  CHECK_FALSE(info.param("neighbours")->check(std::int64_t(1)).empty());
  Rng rng(2);
  const arma::mat X = rng.randn(3, 10);
  CHECK_THROWS_WITH(fit_umap(X, {{"neighbours", std::int64_t(11)}}, 1, 1),
                    Catch::Contains("neighbours < 10"));
}

TEST_CASE("UMAP parallel layout: the same bits for 1, 2 and 3 threads, quality of the sequential",
          "[neighbour][umap]") {
  Rng rng(11);
  // Overlapping blobs: the 1-NN error is well above 0, so the two layouts can be told apart.
  const auto [X, y] = labelled_blobs(rng, 10, 4, 150, 1.2);
  const std::map<std::string, ParamValue> par = {{"layout", std::string("parallel")}};
  Trace trace;
  auto m1 = fit_umap(X, par, 1, 42, &trace);
  const arma::mat E = m1->embedding();
  REQUIRE(E.is_finite());
  REQUIRE(trace.rows.size() == 500);
  CHECK(trace.rows.back().objective < trace.rows.front().objective);
  for (unsigned t : {2u, 3u}) {
    Trace tt;
    auto m = fit_umap(X, par, t, 42, &tt);
    CHECK(arma::approx_equal(m->embedding(), E, "absdiff", 0.0));
    REQUIRE(tt.rows.size() == trace.rows.size());
    CHECK(tt.rows.back().objective == trace.rows.back().objective);
  }
  // A different algorithm from the sequential layout, of the same quality: 1-NN errors within 3
  // points on the same graph and start.
  auto seq = fit_umap(X, {}, 1, 42);
  CHECK(arma::abs(seq->embedding() - E).max() > 1e-3);
  const double e_par = loo_1nn_error(E, y), e_seq = loo_1nn_error(seq->embedding(), y);
  CHECK(e_seq > 0.02);
  CHECK(e_par <= e_seq + 0.03);
  // 3-D runs the generic loop, with the same thread invariance.
  auto a3 = fit_umap(X, par, 1, 42, nullptr, 3), b3 = fit_umap(X, par, 2, 42, nullptr, 3);
  CHECK(arma::approx_equal(a3->embedding(), b3->embedding(), "absdiff", 0.0));
  CHECK(loo_1nn_error(a3->embedding(), y) <= e_seq + 0.03);
}
