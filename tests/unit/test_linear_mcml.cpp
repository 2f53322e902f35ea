// MCML (methods/linear/mcml): the objective against the KL divergences written out on a tiny
// case, the gradient against finite differences, and a toy set where the class structure lies
// along low-variance directions: the learned map must beat PCA's 1-NN error and lower the sum
// of divergences from its start.
#include <catch2/catch.hpp>

#include <cmath>

#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/linear/mcml/mcml.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::one_nn_error;

namespace {

// sum_i sum_j p0(j|i) log(p0(j|i) / p(j|i)), every term spelt out with std::exp and std::log.
double direct_kl(const arma::mat& X, const arma::uvec& y, const arma::mat& L) {
  const arma::uword n = X.n_cols;
  double f = 0;
  for (arma::uword i = 0; i < n; ++i) {
    double z = 0;
    arma::uword same = 0;
    for (arma::uword k = 0; k < n; ++k) {
      if (k == i) continue;
      z += std::exp(-arma::accu(arma::square(L * (X.col(i) - X.col(k)))));
      if (y(k) == y(i)) ++same;
    }
    for (arma::uword j = 0; j < n; ++j) {
      if (j == i || y(j) != y(i)) continue;
      const double p0 = 1.0 / double(same);
      const double p = std::exp(-arma::accu(arma::square(L * (X.col(i) - X.col(j))))) / z;
      f += p0 * std::log(p0 / p);
    }
  }
  return f;
}

}  // namespace

TEST_CASE("mcml's objective is the sum of the KL divergences", "[linear][mcml]") {
  Rng rng(3);
  const arma::mat X = rng.randn(3, 7);
  const arma::uvec y = {0, 0, 1, 1, 1, 2, 0};  // class 2 has one point: no target distribution
  for (const double scale : {0.3, 1.0}) {
    const arma::mat L = scale * rng.randn(2, 3);
    McmlObjective obj(X, y, 2);
    const double want = direct_kl(X, y, L);
    INFO("scale " << scale << ": " << want);
    CHECK(want > 0);
    CHECK(obj.evaluate(arma::vectorise(L), nullptr) == Approx(want).epsilon(1e-12));
  }
  // A map that puts every class on one point and the classes far apart leaves no divergence.
  const arma::mat Xc = {{0, 0, 1, 1, 1, 2, 0}, {5, -3, 2, 7, 1, 4, 0}};
  McmlObjective collapse(Xc, y, 1);
  CHECK(collapse.evaluate(arma::vec{10.0, 0.0}, nullptr) < 1e-12);
}

TEST_CASE("mcml's gradient matches finite differences", "[linear][mcml]") {
  const auto d = testing::labelled_blobs(7, 5, 3, 9, 1.5);
  Rng rng(4);
  const arma::mat L0 = rng.randn(2, 5);
  McmlObjective obj(d.X, d.y, 2);
  for (const double scale : {0.05, 0.3, 1.0}) {
    const GradCheck c = check_gradient(obj, arma::vectorise(scale * L0));
    INFO("scale " << scale << ": rel error " << c.max_rel_error);
    CHECK(c.max_rel_error < 1e-6);
  }
}

TEST_CASE("mcml beats PCA where the classes lie along low-variance directions", "[linear][mcml]") {
  // Three classes whose means differ along axes 0 and 1 (sd 0.4), with axes 2-4 irrelevant and
  // wide (sd 4): PCA keeps the irrelevant axes.
  auto make = [](std::uint64_t seed, arma::uword n, arma::uvec& y) {
    Rng rng(seed);
    arma::mat X = rng.randn(5, n);
    y.set_size(n);
    const double means[2][3] = {{-1.0, 1.0, 0.0}, {-0.6, -0.6, 1.0}};
    for (arma::uword i = 0; i < n; ++i) {
      y(i) = i % 3;
      X(0, i) = 0.4 * X(0, i) + means[0][y(i)];
      X(1, i) = 0.4 * X(1, i) + means[1][y(i)];
      X.rows(2, 4).col(i) *= 4.0;
    }
    return X;
  };
  arma::uvec ytr, yte;
  const arma::mat Xtr = make(1, 90, ytr), Xte = make(2, 150, yte);
  auto pca = fit_method("pca", {}, Xtr, 2);
  const double pca_err = one_nn_error(pca->embedding(), ytr, pca->transform(Xte), yte);
  auto m = fit_method("mcml", {}, Xtr, 2, &ytr, 3);
  const double err = one_nn_error(m->embedding(), ytr, m->transform(Xte), yte);
  const auto& mcml = dynamic_cast<const Mcml&>(*m);
  const arma::mat Xc = Xtr.each_col() - mcml.mean();
  McmlObjective obj(Xc, ytr, 2);
  const double f0 = obj.evaluate(arma::vectorise(mcml.start()), nullptr);
  INFO("1-NN error mcml " << err << ", pca " << pca_err << "; objective " << f0 << " -> "
                          << mcml.objective());
  CHECK(pca_err > 0.4);
  CHECK(err < 0.5 * pca_err);
  CHECK(mcml.objective() < 0.5 * f0);
}
