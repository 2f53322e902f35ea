#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "methods/kernel/kernel_subspace.hpp"
#include "methods/kernel/sklpp/sklpp.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("sklpp with a linear kernel is supervised LPP on the centred data", "[kernel][sklpp]") {
  const auto [X, y] = labelled_blobs(31, 5, 3, 20, 1.0);
  auto m = fit_linear_kernel("sklpp", 1e-12, X, 2, y, 3);
  // Reference graph written out directly: every same-class pair, heat weights with t = mean
  // squared same-class distance.
  const arma::uword n = X.n_cols;
  arma::mat Wd(n, n, arma::fill::zeros);
  double sum = 0, cnt = 0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      if (i != j && y(i) == y(j)) {
        sum += arma::accu(arma::square(X.col(i) - X.col(j)));
        cnt += 1;
      }
  const double t = sum / cnt;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      if (i != j && y(i) == y(j))
        Wd(i, j) = std::exp(-arma::accu(arma::square(X.col(i) - X.col(j))) / t);
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  const arma::mat D = arma::diagmat(arma::sum(Wd, 1));
  arma::cx_vec ev;
  arma::cx_mat V;
  REQUIRE(arma::eig_pair(ev, V, Xc * (D - Wd) * Xc.t(), Xc * D * Xc.t()));
  const arma::uvec order = arma::sort_index(arma::real(ev), "ascend");
  const arma::mat ref = arma::real(V.cols(order.head(2))).t() * Xc;
  CHECK(subspace_cosines(m->embedding(), ref).min() > 1 - 1e-6);
}

TEST_CASE("sklpp rbf collapses classes: training 1-NN is perfect on separable blobs",
          "[kernel][sklpp]") {
  Rng rng(32);
  const auto [X, y] = labelled_blobs(rng, 4, 4, 20, 3.0);
  auto m =
      fit_method("sklpp", {{"kernel_width", 1.0}, {"neighbours", std::int64_t(5)}}, X, 3, &y, 4);
  const arma::mat Y = m->embedding();
  CHECK(arma::abs(m->transform(X) - Y).max() < 1e-8);
  // Within-class spread is small relative to the spread of class means.
  double within = 0, total = arma::accu(arma::square(Y.each_col() - arma::mean(Y, 1)));
  for (arma::uword c = 0; c < 4; ++c) {
    const arma::mat Yc = Y.cols(arma::find(y == c));
    within += arma::accu(arma::square(Yc.each_col() - arma::mean(Yc, 1)));
  }
  CHECK(within < 0.1 * total);
}

TEST_CASE("sklpp class graph: k nearest same-class neighbours, symmetric", "[kernel][sklpp]") {
  const arma::mat X{{0.0, 1.0, 3.0, 10.0, 11.0}};
  const arma::uvec y{0, 0, 0, 1, 1};
  const arma::sp_mat G = class_graph(X, y, 2, 1);
  CHECK(G(0, 1) == Approx(1.0));
  CHECK(G(1, 2) == Approx(2.0));  // 2's nearest same-class point is 1
  CHECK(G(0, 2) == 0.0);
  CHECK(G(3, 4) == Approx(1.0));
  CHECK(G(0, 3) == 0.0);
  CHECK(arma::abs(arma::mat(G - G.t())).max() == 0.0);
  CHECK_THROWS_AS(fit_method("sklpp", {}, X, 1, nullptr, 0), MethodError);
}
