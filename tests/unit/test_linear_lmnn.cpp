// LMNN (methods/linear/lmnn): the objective against a direct sum over every triple, its gradient
// against finite differences on a fixed active set, the target neighbours, and a hand case where
// one irrelevant noisy dimension dominates the distances: the learned map must find the class
// direction that both the identity and PCA bury (1-NN test error at most half the identity's),
// and lower the objective from its start.
#include <catch2/catch.hpp>

#include <string>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/core/trace.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/linear/lmnn/lmnn.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::one_nn_error;

namespace {

// Two classes apart along axis 0 (means -1 and +1, sd 0.5), axis 1 irrelevant (sd 3) and axis 2
// irrelevant and dominant (sd 10): PCA's two directions are the irrelevant ones.
testing::Labelled noisy_classes(std::uint64_t seed, arma::uword n) {
  Rng rng(seed);
  testing::Labelled l;
  l.X = rng.randn(3, n);
  l.y.set_size(n);
  for (arma::uword i = 0; i < n; ++i) {
    l.y(i) = i % 2;
    l.X(0, i) = 0.5 * l.X(0, i) + (l.y(i) ? 1.0 : -1.0);
    l.X(1, i) *= 3.0;
    l.X(2, i) *= 10.0;
  }
  return l;
}

// The objective written out over every (i, j, l): no active set, no pair weights.
double brute_objective(const arma::mat& X, const arma::uvec& y, const arma::umat& T,
                       const arma::mat& L, double mu, arma::uword& active) {
  const arma::mat Y = L * X;
  double pull = 0, push = 0;
  active = 0;
  for (arma::uword i = 0; i < X.n_cols; ++i)
    for (arma::uword t = 0; t < T.n_rows; ++t) {
      const double dij = arma::accu(arma::square(Y.col(i) - Y.col(T(t, i))));
      pull += dij;
      for (arma::uword l = 0; l < X.n_cols; ++l) {
        if (y(l) == y(i)) continue;
        const double h = 1.0 + dij - arma::accu(arma::square(Y.col(i) - Y.col(l)));
        if (h > 0) {
          push += h;
          ++active;
        }
      }
    }
  return (1 - mu) * pull + mu * push;
}

}  // namespace

TEST_CASE("lmnn's target neighbours are the nearest points of the same class", "[linear][lmnn]") {
  const auto d = testing::labelled_blobs(3, 4, 3, 7, 1.0);
  const arma::umat T = lmnn_targets(d.X, d.y, 3);
  for (arma::uword i = 0; i < d.X.n_cols; ++i) {
    arma::vec dist(d.X.n_cols);
    for (arma::uword j = 0; j < d.X.n_cols; ++j)
      dist(j) = (j == i || d.y(j) != d.y(i)) ? arma::datum::inf
                                             : arma::accu(arma::square(d.X.col(i) - d.X.col(j)));
    const arma::uvec order = arma::sort_index(dist);
    for (arma::uword t = 0; t < 3; ++t) CHECK(T(t, i) == order(t));
  }
  CHECK_THROWS_WITH(lmnn_targets(d.X, d.y, 7), Catch::Contains("'neighbours'"));
}

TEST_CASE("lmnn's objective is the hinge sum over every triple", "[linear][lmnn]") {
  const auto d = testing::labelled_blobs(5, 6, 3, 10, 1.5);
  const arma::umat T = lmnn_targets(d.X, d.y, 3);
  Rng rng(9);
  for (const double scale : {0.2, 0.5, 1.0}) {
    const arma::mat L = scale * rng.randn(2, 6);
    LmnnObjective obj(d.X, d.y, T, 2, 0.4);
    arma::uword active = 0;
    const double want = brute_objective(d.X, d.y, T, L, 0.4, active);
    INFO("scale " << scale << ": " << active << " active triples");
    CHECK(active > 0);
    CHECK(obj.evaluate(arma::vectorise(L), nullptr) == Approx(want).epsilon(1e-12));
    CHECK(obj.active_triples() == active);
  }
}

TEST_CASE("lmnn's gradient matches finite differences on a fixed active set", "[linear][lmnn]") {
  const auto d = testing::labelled_blobs(7, 5, 3, 9, 1.5);
  const arma::umat T = lmnn_targets(d.X, d.y, 2);
  Rng rng(4);
  const arma::mat L0 = rng.randn(3, 5);
  for (const double scale : {0.1, 0.5, 2.0}) {
    LmnnObjective obj(d.X, d.y, T, 3, 0.5);
    const arma::vec x = arma::vectorise(scale * L0);
    obj.freeze_active(x);
    const GradCheck c = check_gradient(obj, x);
    INFO("scale " << scale << ": " << obj.active_triples() << " active, rel error "
                  << c.max_rel_error);
    CHECK(obj.active_triples() > 0);
    CHECK(c.max_rel_error < 1e-6);
    // Away from the kinks the live objective has the same gradient.
    LmnnObjective live(d.X, d.y, T, 3, 0.5);
    arma::vec g_live, g_frozen;
    live.evaluate(x, &g_live);
    obj.evaluate(x, &g_frozen);
    CHECK(arma::abs(g_live - g_frozen).max() <= 1e-12 * arma::abs(g_live).max());
  }
}

TEST_CASE("lmnn finds the class direction that a dominant noisy dimension hides",
          "[linear][lmnn]") {
  const auto tr = noisy_classes(1, 120), te = noisy_classes(2, 200);
  const double identity_err = one_nn_error(tr.X, tr.y, te.X, te.y);
  auto pca = fit_method("pca", {}, tr.X, 2);
  const double pca_err = one_nn_error(pca->embedding(), tr.y, pca->transform(te.X), te.y);
  for (const std::string optimizer : {"lbfgs", "gd"}) {
    Trace trace;
    auto m = fit_method("lmnn", {{"optimizer", optimizer}, {"iterations", std::int64_t(300)}}, tr.X,
                        2, &tr.y, 2, &trace);
    const double err = one_nn_error(m->embedding(), tr.y, m->transform(te.X), te.y);
    const auto& lmnn = dynamic_cast<const Lmnn&>(*m);
    const arma::mat Xc = tr.X.each_col() - lmnn.mean();
    LmnnObjective obj(Xc, tr.y, lmnn_targets(Xc, tr.y, 3), 2, 0.5);
    const double f0 = obj.evaluate(arma::vectorise(lmnn.start()), nullptr);
    INFO(optimizer << ": 1-NN error lmnn " << err << ", identity " << identity_err << ", pca "
                   << pca_err << "; objective " << f0 << " -> " << lmnn.objective() << " in "
                   << trace.rows.size() << " iterations, " << trace.notes.front().second);
    CHECK(identity_err > 0.1);
    CHECK(pca_err > 0.3);
    CHECK(lmnn.objective() < 0.5 * f0);
    // Gradient descent crawls along this badly conditioned valley (the noisy axis has 400 times
    // the class axis' variance); L-BFGS crosses it.
    if (optimizer == "lbfgs") CHECK(err < 0.5 * identity_err);
  }
}
