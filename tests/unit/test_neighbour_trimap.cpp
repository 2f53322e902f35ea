// TriMap: the triplet loss gradient against finite differences, the tempered log, the triplet
// rules (k never an inlier, weights >= 0, three random triplets per point), fewer violated triplets
// after the fit, blob separation and determinism; the start and the iteration of the trimap 1.1.4
// package (and PaCMAP's start, which follows the same rule).
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "framework/core/error.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/neighbour/trimap/trimap.hpp"
#include "nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("TriMap loss gradient against finite differences", "[neighbour][trimap]") {
  Rng rng(1);
  trimap::Triplets t;
  const arma::uword n = 30, m = 200;
  t.ijk.set_size(3, m);
  t.weights = rng.randu(m, 1) + 0.1;
  for (arma::uword e = 0; e < m; ++e) {
    const arma::uvec p = rng.permutation(n);
    t.ijk.col(e) = p.head(3);
  }
  for (double scale : {0.01, 1.0, 10.0}) {
    INFO("scale " << scale);
    FunctionObjective f([&](const arma::vec& x, arma::vec* grad) {
      const arma::mat Y = arma::reshape(x, 2, n);
      arma::mat G;
      const double v = trimap::loss(Y, t, grad ? &G : nullptr);
      if (grad) *grad = arma::vectorise(G);
      return v;
    });
    CHECK(check_gradient(f, arma::vectorise(scale * rng.randn(2, n)), 1e-4).max_rel_error < 1e-6);
  }
}

TEST_CASE("TriMap tempered log", "[neighbour][trimap]") {
  CHECK(trimap::tempered_log(3.0, 1.0) == Approx(std::log(3.0)));
  CHECK(trimap::tempered_log(4.0, 0.5) == Approx(2.0 * (2.0 - 1.0)));
  CHECK(trimap::tempered_log(1.0, 0.5) == 0.0);
  // Tends to the log as t -> 1.
  CHECK(trimap::tempered_log(5.0, 0.9999) == Approx(std::log(5.0)).epsilon(1e-3));
}

TEST_CASE("TriMap triplets follow their rules, the fit satisfies more of them",
          "[neighbour][trimap]") {
  Rng rng(2);
  const auto [X, y] = labelled_blobs(rng, 8, 4, 50, 4.0);
  Trace trace;
  auto base = fit_method("trimap", {}, X, 2, nullptr, 0, &trace, 3);
  const auto& tm = dynamic_cast<const Trimap&>(*base);
  const trimap::Triplets& t = tm.triplets();
  const arma::uword n = X.n_cols;
  REQUIRE(t.ijk.n_cols == n * (12 * 4 + 3));
  CHECK(t.weights.min() >= 0.0);
  CHECK(t.weights.is_finite());
  for (arma::uword e = 0; e < t.ijk.n_cols; ++e) {
    const arma::uword i = t.ijk(0, e), j = t.ijk(1, e), k = t.ijk(2, e);
    CHECK((i != j && i != k && j != k));
  }
  // kNN triplets: per point, the 12 inliers of its first triplets never appear as k.
  for (arma::uword i = 0; i < n; ++i) {
    std::set<arma::uword> in;
    for (arma::uword e = 0; e < 48; ++e) in.insert(t.ijk(1, i * 48 + e));
    CHECK(in.size() == 12);
    for (arma::uword e = 0; e < 48; ++e) CHECK(in.count(t.ijk(2, i * 48 + e)) == 0);
  }
  // Random triplets: three per point, in point order.
  for (arma::uword e = tm.knn_triplets(); e < t.ijk.n_cols; ++e)
    CHECK(t.ijk(0, e) == (e - tm.knn_triplets()) / 3);
  // The embedding violates fewer triplets than the start and separates the blobs.
  const arma::mat E = base->embedding();
  double viol_end = 0, viol_start = 0;
  trimap::loss(E, t, nullptr, &viol_end);
  trimap::loss(1e-4 * Rng(9).randn(2, n), t, nullptr, &viol_start);
  CHECK(viol_end < 0.5 * viol_start);
  arma::uword wrong = 0;
  for (arma::uword i = 0; i < n; ++i) {
    arma::rowvec d = arma::sum(arma::square(E.each_col() - E.col(i)), 0);
    d(i) = arma::datum::inf;
    wrong += y(arma::index_min(d)) != y(i);
  }
  CHECK(wrong == 0);
  REQUIRE(trace.rows.size() == 400);
  CHECK(trace.rows.back().objective < trace.rows.front().objective);
  auto again = fit_method("trimap", {}, X, 2, nullptr, 0, nullptr, 3);
  CHECK(arma::approx_equal(again->embedding(), E, "absdiff", 0.0));
  CHECK_THROWS_AS(fit_method("trimap", {{"neighbours", std::int64_t(199)}}, X, 2), MethodError);
}

namespace {

// 0.01 x the principal-component scores of the data the package starts from (trimap_.py and
// pacmap.py, both at the commits of scripts/get_references.sh): above 100-D the centred data,
// otherwise the data divided by its range as a whole; armadillo's princomp, up to each row's sign.
arma::mat package_pca_start(const arma::mat& X) {
  arma::mat coeff, score;
  arma::princomp(coeff, score, X.t());
  const double range = X.n_rows > 100 ? 1.0 : X.max() - X.min();
  return 0.01 / range * score.cols(0, 1).t();
}

bool same_up_to_row_signs(const arma::mat& A, const arma::mat& B, double tol) {
  for (arma::uword r = 0; r < A.n_rows; ++r)
    if (!arma::approx_equal(A.row(r), B.row(r), "absdiff", tol) &&
        !arma::approx_equal(A.row(r), -B.row(r), "absdiff", tol))
      return false;
  return true;
}

}  // namespace

TEST_CASE("TriMap and PaCMAP start at 0.01 x the PCA scores of the packages' preprocessed data",
          "[neighbour][trimap][pacmap]") {
  for (arma::uword d : {8u, 120u}) {
    INFO("d = " << d);
    Rng rng(6);
    arma::mat X = labelled_blobs(rng, d, 3, 40, 4.0).X;
    X = 7.0 * X + 3.0;  // a range far from 1: the start's scale shows it
    const arma::mat want = package_pca_start(X);
    // One iteration with a vanishing step leaves the start where it was.
    for (const char* name : {"trimap", "pacmap"}) {
      INFO(name);
      auto m = fit_method(name, {{"iterations", std::int64_t(1)}, {"learning_rate", 1e-300}}, X, 2,
                          nullptr, 0, nullptr, 2);
      CHECK(same_up_to_row_signs(m->embedding(), want, 1e-9 * arma::abs(want).max()));
    }
  }
}

TEST_CASE(
    "TriMap iterates as trimap 1.1.4: learning_rate is the step, the gradient taken at the "
    "momentum look-ahead",
    "[neighbour][trimap]") {
  Rng rng(4);
  const arma::mat X = 5.0 * labelled_blobs(rng, 8, 3, 30, 4.0).X + 2.0;
  const int iters = 4;
  auto m =
      fit_method("trimap", {{"iterations", std::int64_t(iters)}}, X, 2, nullptr, 0, nullptr, 3);
  const trimap::Triplets& t = dynamic_cast<const Trimap&>(*m).triplets();
  // trimap_.trimap with opt_method "dbd": update_embedding_dbd on trimap_grad (half the
  // derivative) evaluated at Y + gamma vel, lr 0.1 unscaled.
  arma::mat Y = package_pca_start(X);
  const arma::mat fitted = m->embedding();
  for (arma::uword r = 0; r < 2; ++r)  // the package's signs are free: take drbench's
    if (arma::dot(Y.row(r), fitted.row(r)) < 0) Y.row(r) *= -1.0;
  arma::mat vel(arma::size(Y), arma::fill::zeros), gain(arma::size(Y), arma::fill::ones), G;
  for (int itr = 0; itr < iters; ++itr) {
    const double gamma = itr > 250 ? 0.8 : 0.5;
    trimap::loss(Y + gamma * vel, t, &G);
    const arma::mat grad = 0.5 * G;
    for (arma::uword e = 0; e < Y.n_elem; ++e) {
      const bool differ = (vel(e) > 0) - (vel(e) < 0) != (grad(e) > 0) - (grad(e) < 0);
      gain(e) = differ ? gain(e) + 0.2 : std::max(gain(e) * 0.8, 0.01);
      vel(e) = gamma * vel(e) - 0.1 * gain(e) * grad(e);
    }
    Y += vel;
  }
  CHECK(arma::abs(Y - fitted).max() < 1e-9 * arma::abs(Y).max());
}
