#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/error.hpp"
#include "linear_support.hpp"
#include "methods/linear/lda/lda.hpp"

using namespace drbench;
using drbench::testing::blob_problem;
using drbench::testing::fit_method;
using drbench::testing::ridge;

namespace {

double fisher_ratio(const Scatter& s, const arma::vec& w) {
  return arma::as_scalar(w.t() * s.Sb * w) / arma::as_scalar(w.t() * s.Sw * w);
}

}  // namespace

TEST_CASE("lda for two classes is the closed form Sw^-1 (m1 - m2)", "[linear][lda]") {
  Rng rng(21);
  auto [X, y] = blob_problem(rng, 5, 2, 40, 2.0);
  X.row(1) *= 4.0;  // anisotropic within-class scatter so Sw^-1 matters
  auto m = fit_method("lda", X, &y, 2, 1, ridge(0.0));
  const Scatter s = class_scatter(X, y, 2);
  const arma::vec w = arma::solve(s.Sw, s.class_means.col(0) - s.class_means.col(1));
  const arma::vec a = dynamic_cast<const Lda&>(*m).projection().col(0);
  CHECK(std::abs(arma::dot(a, w)) / (arma::norm(a) * arma::norm(w)) == Approx(1.0).epsilon(1e-10));
  // Normalised so that the within-class scatter of the projection is 1.
  CHECK(arma::as_scalar(a.t() * s.Sw * a) == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("lda direction maximises the Fisher ratio over all 2-D directions", "[linear][lda]") {
  Rng rng(22);
  auto [X, y] = blob_problem(rng, 2, 3, 30, 1.5);
  X.row(0) *= 3.0;
  auto m = fit_method("lda", X, &y, 3, 1, ridge(0.0));
  const Scatter s = class_scatter(X, y, 3);
  const double best = fisher_ratio(s, dynamic_cast<const Lda&>(*m).projection().col(0));
  double brute = 0.0;
  for (int i = 0; i < 3600; ++i) {
    const double th = M_PI * i / 3600.0;
    brute = std::max(brute, fisher_ratio(s, arma::vec{std::cos(th), std::sin(th)}));
  }
  CHECK(best >= brute * (1 - 1e-12));
  CHECK(best == Approx(brute).epsilon(1e-5));  // the grid gets within its resolution
  CHECK(dynamic_cast<const Lda&>(*m).fisher_values()(0) == Approx(best).epsilon(1e-9));
}

TEST_CASE("lda transform of the training points equals the embedding", "[linear][lda]") {
  Rng rng(23);
  auto [X, y] = blob_problem(rng, 6, 4, 20, 3.0);
  auto m = fit_method("lda", X, &y, 4, 3);
  CHECK(m->embedding().n_rows == 3);
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
}

TEST_CASE("lda limits dims to C-1 and needs labels", "[linear][lda]") {
  Rng rng(24);
  auto [X, y] = blob_problem(rng, 6, 3, 10, 3.0);
  CHECK_THROWS_WITH(fit_method("lda", X, &y, 3, 3), Catch::Contains("C-1 = 2"));
  CHECK_THROWS_AS(fit_method("lda", X, nullptr, 0, 1), MethodError);
  const MethodInfo& info = Registry::instance().get("lda");
  CHECK(info.dim_limit(DataShape{30, 6, 3}, info.complete(ParamSet())) == 2);
  CHECK(info.supervised);
}

TEST_CASE("lda on singular S_w: clear error without ridge, works with it", "[linear][lda]") {
  Rng rng(25);
  auto [X, y] = blob_problem(rng, 30, 3, 5, 3.0);  // n - C = 12 < d = 30: S_w has rank 12
  CHECK_THROWS_WITH(fit_method("lda", X, &y, 3, 2, ridge(0.0)), Catch::Contains("'reg'"));
  auto m = fit_method("lda", X, &y, 3, 2, ridge(1e-3));
  CHECK(m->embedding().is_finite());
  // The classes separate: each point is nearer its own class mean in the projection.
  const arma::mat Y = m->embedding();
  arma::mat means(2, 3, arma::fill::zeros);
  for (arma::uword i = 0; i < y.n_elem; ++i) means.col(y(i)) += Y.col(i) / 5.0;
  for (arma::uword i = 0; i < y.n_elem; ++i) {
    arma::vec dist(3);
    for (arma::uword c = 0; c < 3; ++c) dist(c) = arma::norm(Y.col(i) - means.col(c));
    CHECK(dist.index_min() == y(i));
  }
}
