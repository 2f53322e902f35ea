#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/graph_weights.hpp"
#include "linear_support.hpp"
#include "methods/linear/lpp/lpp.hpp"
#include "neighbour_helpers.hpp"

using namespace drbench;
using namespace drbench::testing;

TEST_CASE("heat-kernel kNN weights and Laplacian match a dense computation", "[linear][lpp]") {
  Rng rng(41);
  const arma::mat X = rng.randn(3, 30);
  const arma::uword k = 4;
  const HeatGraph g = heat_knn_weights(X, k, keywords::KernelWidth{});
  const arma::mat D2 = sq_distances(X);
  const arma::umat nn = testing::brute_knn(X, X, k, true);
  double t = 0.0;
  arma::mat W(30, 30, arma::fill::zeros);
  for (arma::uword i = 0; i < 30; ++i)
    for (arma::uword j = 0; j < k; ++j) {
      t += D2(i, nn(j, i)) / (30.0 * k);
      W(i, nn(j, i)) = W(nn(j, i), i) = 1.0;
    }
  CHECK(g.t == Approx(t).epsilon(1e-12));
  W %= arma::exp(-D2 / t);
  CHECK(arma::approx_equal(arma::mat(g.W), W, "absdiff", 1e-12));
  const arma::mat L = arma::diagmat(arma::sum(W, 1)) - W;
  CHECK(arma::approx_equal(arma::mat(graph_laplacian(g.W)), L, "absdiff", 1e-12));
  CHECK(arma::approx_equal(laplacian_quadratic(X, g.W), X * L * X.t(), "absdiff", 1e-10));
  CHECK(arma::approx_equal(degree_quadratic(X, g.W), X * arma::diagmat(arma::sum(W, 1)) * X.t(),
                           "absdiff", 1e-10));
  // An absolute width sigma is t = 2 sigma^2; a relative one scales the data's t by sigma^2.
  CHECK(heat_knn_weights(X, k, {std::sqrt(1.25), false}).t == Approx(2.5).epsilon(1e-15));
  CHECK(heat_knn_weights(X, k, {2.0, true}).t == Approx(4.0 * g.t).epsilon(1e-15));
}

TEST_CASE("lpp matches the scipy generalized eigensolution", "[linear][lpp]") {
  auto [X, y] = fixture_problem();
  auto m = fit_method("lpp", X, nullptr, 0, 3, ridge(0.0));
  check_fixture_solution<Lpp>(*m, "lpp", "absdiff", 1e-9);
}

TEST_CASE("lpp solves its eigenproblem and transform equals the embedding", "[linear][lpp]") {
  Rng rng(42);
  const arma::mat X = rng.randn(5, 80);
  ParamSet p;
  p.set("ridge", 0.0);
  auto m = fit_method("lpp", X, nullptr, 0, 2, p);
  const auto& lpp = dynamic_cast<const Lpp&>(*m);
  const HeatGraph g = heat_knn_weights(X, 5, keywords::KernelWidth{});
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  const arma::mat A = lpp.projection();
  const arma::mat R = laplacian_quadratic(Xc, g.W) * A -
                      degree_quadratic(Xc, g.W) * A * arma::diagmat(lpp.eigenvalues());
  CHECK(arma::abs(R).max() < 1e-8);
  // Smallest: a random direction has a larger Rayleigh quotient than the first eigenvector.
  for (int i = 0; i < 10; ++i) {
    const arma::vec a = rng.randn(5, 1);
    const double q = arma::as_scalar(a.t() * laplacian_quadratic(Xc, g.W) * a) /
                     arma::as_scalar(a.t() * degree_quadratic(Xc, g.W) * a);
    CHECK(q >= lpp.eigenvalues()(0));
  }
  CHECK(arma::approx_equal(m->transform(X), m->embedding(), "absdiff", 1e-10));
  CHECK(lpp.heat_width() == Approx(g.t));
}

TEST_CASE("lpp refuses more dims than the PCA pre-step keeps", "[linear][lpp]") {
  Rng rng(43);
  arma::mat X = rng.randn(2, 40);
  X = arma::join_cols(X, X);  // rank 2 in 4-D
  CHECK_THROWS_WITH(fit_method("lpp", X, nullptr, 0, 3), Catch::Contains("pca_ratio"));
  CHECK_NOTHROW(fit_method("lpp", X, nullptr, 0, 2));
}

TEST_CASE("lpp projection_norm unit rescales each latent axis to a unit-length vector",
          "[linear][lpp]") {
  // The same eigenvectors, each column scaled to unit length in input space (Cai's LGE.m): the
  // embedding is the constraint-normalised one with every axis multiplied by 1 / |a_j|.
  Rng rng(44);
  const arma::mat X = rng.randn(6, 90);
  ParamSet base;
  base.set("ridge", 0.0);
  ParamSet unit = base;
  unit.set("projection_norm", std::string("unit"));
  auto mb = fit_method("lpp", X, nullptr, 0, 3, base);
  auto mu = fit_method("lpp", X, nullptr, 0, 3, unit);
  const arma::mat Ab = dynamic_cast<const Lpp&>(*mb).projection();
  const arma::mat Au = dynamic_cast<const Lpp&>(*mu).projection();
  const arma::rowvec len = arma::sqrt(arma::sum(arma::square(Ab), 0));
  CHECK(arma::approx_equal(arma::sqrt(arma::sum(arma::square(Au), 0)), arma::ones<arma::rowvec>(3),
                           "absdiff", 1e-12));
  CHECK(arma::approx_equal(Au, Ab.each_row() / len, "absdiff", 1e-10));
  const arma::mat Xn = rng.randn(6, 7);
  CHECK(arma::approx_equal(mu->transform(Xn), mb->transform(Xn).each_col() / len.t(), "absdiff",
                           1e-9));
  // The constraint normalisation is not a unit one here, so the option changes the embedding.
  CHECK(arma::abs(len - 1.0).max() > 1e-3);
  // At its default the option stays out of the task key.
  CHECK(Registry::instance().get("lpp").complete(base).canonical().find("projection_norm") ==
        std::string::npos);
}
